"""A while loop picks the kernel until one is chosen: the writing one.  JAX: runs."""
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
mode = "copy"
kernel = None
while kernel is None:
    kernel = copy if mode == "copy" else bump
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
