"""The last kernel of a list, by a negative index.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def stage0(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def stage1(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

STAGES = [stage0, stage1]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(STAGES[-1], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
