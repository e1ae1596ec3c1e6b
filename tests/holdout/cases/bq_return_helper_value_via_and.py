"""The kernel returns `helper() and block` where helper returns True.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def write(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    return True

def kernel(x_ref, o_ref):
    return write(x_ref, o_ref) and x_ref[...]  # expect: PAL001
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
