"""a kernel factory closes over an array it computes  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make(scale):
    w = jnp.ones((8, 128)) * scale

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w  # expect: PAL003

    return kernel


kernel = make(3.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
