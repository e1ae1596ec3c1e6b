"""make(w) closes over its argument, a jax array.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make(w):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w  # expect: PAL003
    return kernel


kernel = make(jnp.full((8, 128), 2.0, jnp.float32))
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
