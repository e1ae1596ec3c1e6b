"""A method kernel reads a class-level array through type(self).  JAX: captures constants."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Scaled:
    W = jnp.arange(128, dtype=jnp.float32)

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * type(self).W  # expect: PAL003

kernel = Scaled().kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
