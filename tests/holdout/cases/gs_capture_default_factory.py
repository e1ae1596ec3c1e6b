"""an array made in a factory's default argument is captured  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make(table=jnp.arange(128, dtype=jnp.float32)):
    def k(x_ref, o_ref):
        o_ref[...] = x_ref[...] + table  # expect: PAL003
    return k


kernel = make()

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
