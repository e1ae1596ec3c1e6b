"""functools.partial of a body that returns (err) or writes  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def body(x_ref, o_ref, *, scale):
    return x_ref[...] * scale  # expect: PAL001


kernel = functools.partial(body, scale=2.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
