"""A factory default binds a jax array that the kernel closes over.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

W = jnp.full((8, 128), 2.0, jnp.float32)

def make(w=W):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w  # expect: PAL003
    return kernel

kernel = make()
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
