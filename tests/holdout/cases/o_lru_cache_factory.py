"""A kernel factory cached with functools.lru_cache; the closure returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

@functools.lru_cache(maxsize=None)
def get_kernel(power):
    def kernel(x_ref, o_ref):
        return x_ref[...] ** power  # expect: PAL001
    return kernel

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(get_kernel(2), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
