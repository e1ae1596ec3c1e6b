"""an instance with __call__ is the kernel; the return depends on its field  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scaled:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x_ref, o_ref):
        if self.scale == 1:
            o_ref[...] = x_ref[...]
        else:
            return x_ref[...] * self.scale  # expect: PAL001


print(pl.pallas_call(Scaled(2), out_shape=S, interpret=True)(x).sum())
