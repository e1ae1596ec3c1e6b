"""A callable op's __call__ kernel reads a float attribute set in __init__.  JAX: runs."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scale:
    def __init__(self, n):
        self.w = float(n) / 128

    def __call__(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w

kernel = Scale(2)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
