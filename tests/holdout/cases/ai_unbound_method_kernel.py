"""The kernel is a method read from the class, so self is one more parameter.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Ops:
    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...]

print(pl.pallas_call(Ops.kernel, out_shape=S, interpret=True)(x).sum())  # expect: PAL004
