"""Two kernels made by map over a factory and unpacked; the closure returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def make_scale(s):
    def kernel(x_ref, o_ref):
        return x_ref[...] * s  # expect: PAL001
    return kernel

half, double = map(make_scale, (0.5, 2.0))
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
