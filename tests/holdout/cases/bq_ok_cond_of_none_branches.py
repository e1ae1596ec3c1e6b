"""The kernel returns lax.cond whose branches return None.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    def write():
        o_ref[...] = x_ref[...]

    def skip():
        o_ref[...] = x_ref[...] * 0

    return jax.lax.cond(x_ref[0, 0] > 0, write, skip)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
