"""a 0-d jax array made by jnp.asarray of a float  JAX: error "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

SCALE = jnp.asarray(2.0)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE  # expect: PAL003


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
