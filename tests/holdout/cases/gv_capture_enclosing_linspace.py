"""a kernel made in a function closes over an array made there  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make():
    ramp = jnp.linspace(0.0, 1.0, 128, dtype=jnp.float32)

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + ramp  # expect: PAL003

    return kernel


kernel = make()

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
