"""run(v) builds a kernel closing over v, the jax array it was given.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def run(v):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + v  # expect: PAL003

    return pl.pallas_call(kernel, out_shape=S, interpret=True)(v)


print(run(x).sum())
