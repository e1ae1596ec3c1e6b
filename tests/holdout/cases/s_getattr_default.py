"""getattr(ns, name, default) falls back to the default kernel, which returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fallback(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

ops = types.SimpleNamespace(good=good)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(getattr(ops, "fast", fallback), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
