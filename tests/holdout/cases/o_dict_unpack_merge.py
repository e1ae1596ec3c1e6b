"""{**BASE, **EXTRA}: the extra table's entry overrides the base one and returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def base_copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def extra_copy(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

BASE = {"copy": base_copy}
EXTRA = {"copy": extra_copy}
TABLE = {**BASE, **EXTRA}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(TABLE["copy"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
