"""A module-level array built by a chain of array methods (.reshape().astype()) is captured.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

SCALE = jnp.arange(8 * 128).reshape(8, 128).astype(jnp.float32)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
