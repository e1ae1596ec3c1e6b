"""a bound method of a module-level instance is the kernel  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class K:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.scale
        return o_ref[...]  # expect: PAL001


kernel = K(2.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
