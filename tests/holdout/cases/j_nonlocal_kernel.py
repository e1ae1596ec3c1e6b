"""A factory rebinds its kernel through a nested function's nonlocal.  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fused(x_ref, o_ref):
    return x_ref[...] + x_ref[...]  # expect: PAL001

def make(fuse):
    kernel = plain
    def enable():
        nonlocal kernel
        kernel = fused
    if fuse:
        enable()
    return kernel
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(make(True), x).sum())
