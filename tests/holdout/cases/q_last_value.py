"""list(TABLE.values())[-1] is the last registered kernel.  JAX: ValueError "should return None"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

TABLE = collections.OrderedDict()

def v1(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def v2(x_ref, o_ref):
    return x_ref[...] + 2  # expect: PAL001

TABLE["v1"] = v1
TABLE["v2"] = v2
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(list(TABLE.values())[-1], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
