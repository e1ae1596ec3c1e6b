"""A callable op instance's __call__ takes three refs; the launch gives two.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Scale:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] * self.factor

print(pl.pallas_call(Scale(2.0), out_shape=S, interpret=True)(x).sum())  # expect: PAL004
