"""A module-level table stacked from rows with jnp.stack is captured.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

TABLE = jnp.stack([jnp.full((128,), float(i), jnp.float32) for i in range(8)])

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + TABLE  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
