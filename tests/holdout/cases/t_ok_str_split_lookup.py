"""The dotted spec names the valid kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fast(x_ref, o_ref):
    return x_ref[...] * 0.1

TABLE = {"good": good, "fast": fast}
spec = "ops.good"
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(TABLE[spec.split(".")[-1]], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
