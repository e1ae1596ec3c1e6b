"""A bound method is the kernel and it is a generator (a stray yield).  JAX: TypeError not a valid JAX type."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Scaler:
    def __init__(self, scale):
        self.scale = scale

    def kernel(self, x_ref, o_ref):  # expect: PAL005
        o_ref[...] = x_ref[...] * self.scale
        yield

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Scaler(2.0)(jnp.ones((8, 128), jnp.float32)).sum())
