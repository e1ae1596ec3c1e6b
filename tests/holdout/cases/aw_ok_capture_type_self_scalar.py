"""A method kernel reads a class-level float through type(self).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Scaled:
    W = 3.0

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * type(self).W

kernel = Scaled().kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
