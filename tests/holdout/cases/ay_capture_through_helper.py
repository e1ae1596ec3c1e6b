"""A kernel calls a module helper that reads a global array.  JAX: the kernel captures a constant (a jax array)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

W = jnp.full((8, 128), 3.0, jnp.float32)

def scaled(v):
    return v * W  # expect: PAL003

def kernel(x_ref, o_ref):
    o_ref[...] = scaled(x_ref[...])
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
