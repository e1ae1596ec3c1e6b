"""A ChainMap whose override lacks the key falls through to the valid default.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def default_copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fast_add(x_ref, o_ref):
    return x_ref[...] + 1

table = collections.ChainMap({"add": fast_add}, {"copy": default_copy})
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(table["copy"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
