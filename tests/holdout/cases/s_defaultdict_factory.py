"""A defaultdict whose factory gives the fallback kernel for a missing key.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def slow_path(x_ref, o_ref):
    return x_ref[...] * 1.5  # expect: PAL001

TABLE = collections.defaultdict(lambda: slow_path, {"copy": good})
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(TABLE["scale"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
