"""A functools.cached_property builds the array on first read, which is inside the kernel's trace: not a captured constant.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Config:
    @functools.cached_property
    def table(self):
        return jnp.linspace(0.0, 1.0, 8 * 128, dtype=jnp.float32).reshape(8, 128)

CFG = Config()

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * CFG.table

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
