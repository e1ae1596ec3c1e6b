"""A kernel reads a float from a module dict made by a comprehension.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

PARAMS = {name: 2.0 for name in ("scale", "shift")}

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * PARAMS["scale"]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
