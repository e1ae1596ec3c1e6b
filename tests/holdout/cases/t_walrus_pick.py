"""The kernel is bound by an assignment expression in a condition.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def maybe(x_ref, o_ref):
    return x_ref[...] - 3  # expect: PAL001

TABLE = {"maybe": maybe}
x = jnp.ones((8, 128), jnp.float32)
if (kernel := TABLE.get("maybe")) is not None:
    print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
