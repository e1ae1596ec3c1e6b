"""The flag selects the lambda that writes its output.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

USE_FAST = False
kernel = (lambda x_ref, o_ref: x_ref[...] * 2) if USE_FAST else (lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]))
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
