"""A lambda kernel whose body is a conditional expression returning a value.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

USE_FAST = True
kernel = (lambda x_ref, o_ref: x_ref[...] * 2) if USE_FAST else (lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]))  # expect: PAL001
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
