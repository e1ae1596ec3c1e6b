"""An array made by jax.tree.map over a dict of arrays is closed over.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

PARAMS = jax.tree.map(lambda a: a * 2, {"w": jnp.ones((8, 128), jnp.float32)})

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * PARAMS["w"]  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
