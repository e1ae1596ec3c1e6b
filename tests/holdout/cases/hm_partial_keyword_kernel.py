"""functools.partial fixes a keyword of the kernel  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def scaled(x_ref, o_ref, *, scale):
    return x_ref[...] * scale  # expect: PAL001


kernel = functools.partial(scaled, scale=2.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
