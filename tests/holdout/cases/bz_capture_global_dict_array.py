"""A kernel reads PARAMS['w'], a jax array in a module dict filled by a loop.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

PARAMS = {}
for name, value in (("w", 2.0), ("b", 1.0)):
    PARAMS[name] = jnp.full((8, 128), value, jnp.float32)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * PARAMS["w"]  # expect: PAL003
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
