"""{i: k for i, k in enumerate(KERNELS)}[1].  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def second(x_ref, o_ref):
    return x_ref[...] + 2  # expect: PAL001

BY_INDEX = {i: k for i, k in enumerate([good, second])}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(BY_INDEX[1], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
