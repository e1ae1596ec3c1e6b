"""The kernel calls a helper that returns a value, as a statement; the helper also writes.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def _store(o_ref, v):
    o_ref[...] = v
    return v

def kernel(x_ref, o_ref):
    _store(o_ref, x_ref[...] * 2)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
