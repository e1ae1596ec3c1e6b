"""A bound-method kernel reads self.w, a jax array set in __init__.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scaler:
    def __init__(self, w):
        self.w = w

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w  # expect: PAL003

s = Scaler(jnp.full((8, 128), 2.0, jnp.float32))
print(pl.pallas_call(s.kernel, out_shape=S, interpret=True)(x).sum())
