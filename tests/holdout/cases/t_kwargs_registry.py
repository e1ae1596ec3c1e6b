"""A registration helper takes **kwargs and stores each keyword's kernel; one returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bad(x_ref, o_ref):
    return x_ref[...] + 4  # expect: PAL001

REGISTRY = {}

def register(**kernels):
    for name, kernel in kernels.items():
        REGISTRY[name] = kernel

register(copy=good, add4=bad)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(REGISTRY["add4"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
