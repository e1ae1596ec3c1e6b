"""A kernel built in a method closes over self.w, a jax array.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Model:
    def __init__(self, w):
        self.w = w

    def build(self):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * self.w  # expect: PAL003
        return kernel

kernel = Model(jnp.full((8, 128), 0.5, jnp.float32)).build()
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
