"""A picker's positional-only parameter keeps its default: copy.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump_kernel(x_ref, o_ref):
    return x_ref[...] + 1

def pick(table, key="copy", /):
    return table[key]

kernel = pick({"copy": copy_kernel, "bump": bump_kernel})
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
