"""a bound method is the kernel: self is bound, the refs follow  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scaler:
    factor = 3.0

    def kernel(self, x_ref, o_ref):
        return x_ref[...] * self.factor  # expect: PAL001


kernel = Scaler().kernel

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
