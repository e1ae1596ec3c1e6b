"""A functools.cache factory makes a writing kernel.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
@functools.cache
def make(n):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * n
    return kernel
print(pl.pallas_call(make(3), out_shape=S, interpret=True)(x).sum())
