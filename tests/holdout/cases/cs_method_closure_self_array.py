"""Op.kernel reads self.w, a jnp array set in __init__, through a closure.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


class Op:
    def __init__(self):
        self.w = jnp.ones((8, 128), jnp.float32)

    def __call__(self, v):
        w = self.w

        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + w  # expect: PAL003

        return pl.pallas_call(kernel, out_shape=S, interpret=True)(v)


print(Op()(x).sum())
