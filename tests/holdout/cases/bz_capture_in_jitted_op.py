"""A kernel nested in a jax.jit op reads the op's traced argument w.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@jax.jit
def op(x, w):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w  # expect: PAL003

    return pl.pallas_call(kernel, out_shape=S, interpret=True)(x)


print(op(x, jnp.full((8, 128), 2.0, jnp.float32)).sum())
