"""make(2.0) returns a lambda kernel returning a value.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make(scale):
    return lambda x_ref, o_ref: x_ref[...] * scale  # expect: PAL001


kernel = make(2.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
