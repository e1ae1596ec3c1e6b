"""A class whose staticmethod kernels are launched by a classmethod for each name.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Ops:
    @staticmethod
    def plus(x_ref, o_ref):
        o_ref[...] = x_ref[...] + 1

    @staticmethod
    def times(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 3

    @classmethod
    def run(cls, name, x):
        return pl.pallas_call(getattr(cls, name), out_shape=S, interpret=True)(x)

for name in ("plus", "times"):
    print(Ops.run(name, x).sum())
