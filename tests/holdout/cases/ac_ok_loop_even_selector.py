"""A selector by parity is called with even numbers only in a loop.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]
def bump(x_ref, o_ref):
    return x_ref[...] + 1
def pick(n):
    if n % 2 == 0:
        return copy
    return bump
for n in (2, 4):
    pl.pallas_call(pick(n), out_shape=S, interpret=True)(x)
