"""A callable op's __call__ kernel reads an array attribute set in __init__.  JAX: ValueError "captures constants"."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scale:
    def __init__(self, n):
        self.w = jnp.linspace(0.0, 1.0, 128)[None, :] * n

    def __call__(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w  # expect: PAL003

kernel = Scale(2)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
