"""A module-level jax.random array is closed over.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

NOISE = jax.random.normal(jax.random.key(0), (8, 128), jnp.float32)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + NOISE  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
