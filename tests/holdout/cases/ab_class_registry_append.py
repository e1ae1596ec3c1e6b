"""A decorator appends kernels to a class attribute list; the second is launched.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Suite:
    kernels = []

    @classmethod
    def add(cls, fn):
        cls.kernels.append(fn)
        return fn

@Suite.add
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

@Suite.add
def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

kernel = Suite.kernels[1]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
