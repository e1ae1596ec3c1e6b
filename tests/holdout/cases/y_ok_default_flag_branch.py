"""The return is in a branch of a flag whose default is False and that the launch never passes.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def body(x_ref, o_ref, fused=False):
    if fused:
        return x_ref[...] + 1
    o_ref[...] = x_ref[...]
pl.pallas_call(body, out_shape=S, interpret=True)(x)
