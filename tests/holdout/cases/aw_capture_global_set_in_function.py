"""A kernel reads a global array set by a function's `global` statement.  JAX: captures constants."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

W = None

def init():
    global W
    W = jnp.full((8, 128), 2.0, jnp.float32)

init()

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * W  # expect: PAL003
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
