"""A bound method as the kernel reads self.w, a jax array.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


class Scaler:
    def __init__(self):
        self.w = jnp.full((8, 128), 2.0, jnp.float32)

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w  # expect: PAL003


kernel = Scaler().kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
