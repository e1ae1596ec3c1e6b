"""`getattr(cfg, "kernel", None) or default_kernel` picks the default, which returns.  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def default_kernel(x_ref, o_ref):
    return x_ref[...] + 1.0  # expect: PAL001

class Config:
    tile = 128

cfg = Config()
kernel = getattr(cfg, "kernel", None) or default_kernel
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(kernel, x).sum())
