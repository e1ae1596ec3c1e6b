"""enable_debug() sets DEBUG = True before the launch; the kernel returns o_ref[...] under DEBUG.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

DEBUG = False


def enable_debug():
    global DEBUG
    DEBUG = True


enable_debug()


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    if DEBUG:
        return o_ref[...]  # expect: PAL001

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
