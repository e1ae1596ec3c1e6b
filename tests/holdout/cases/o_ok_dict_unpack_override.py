"""{**BASE, **FIXES}: the fix replaces the returning kernel, so the valid one launches.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def broken(x_ref, o_ref):
    return x_ref[...]

def fixed(x_ref, o_ref):
    o_ref[...] = x_ref[...]

BASE = {"copy": broken}
FIXES = {"copy": fixed}
TABLE = {**BASE, **FIXES}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(TABLE["copy"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
