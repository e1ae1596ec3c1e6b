"""A kernel whose nested helper is a generator; the kernel itself is not.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    def scales():
        yield 1.0
        yield 2.0
    o_ref[...] = x_ref[...] * sum(scales())
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
