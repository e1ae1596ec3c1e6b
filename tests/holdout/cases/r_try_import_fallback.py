"""An optional fast kernel module is missing, so the fallback defined in the except clause runs; it returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

try:
    from _no_such_fast_kernels import add_one  # type: ignore
except ImportError:
    def add_one(x_ref, o_ref):
        return x_ref[...] + 1  # expect: PAL001

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
