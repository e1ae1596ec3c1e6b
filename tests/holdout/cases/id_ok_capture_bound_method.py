"""a bound method kernel reads a float field  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scaler:
    def __init__(self):
        self.w = 2.0

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w


print(pl.pallas_call(Scaler().kernel, out_shape=S, interpret=True)(x).sum())
