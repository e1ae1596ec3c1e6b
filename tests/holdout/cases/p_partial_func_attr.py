"""The kernel is read back from a partial's .func (its arguments dropped); it returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def scale_kernel(x_ref, o_ref, scale=2.0):
    return x_ref[...] * scale  # expect: PAL001

configured = functools.partial(scale_kernel, scale=3.0)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(configured.func, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
