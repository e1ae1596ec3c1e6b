"""A read-only MappingProxyType view of the kernel table.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def neg(x_ref, o_ref):
    return -x_ref[...]  # expect: PAL001

def pos(x_ref, o_ref):
    o_ref[...] = x_ref[...]

_TABLE = {"neg": neg, "pos": pos}
TABLE = types.MappingProxyType(_TABLE)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(TABLE["neg"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
