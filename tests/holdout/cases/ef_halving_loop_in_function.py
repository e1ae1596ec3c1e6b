"""pick_block(n) halves 512 until it divides n; KS2[pick_block(192)].  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


KS = {"copy": copy, "bump": bump}


def pick_block(n, start=512):
    b = start
    while b > 8 and n % b:
        b //= 2
    return b


KS2 = {64: bump, 512: copy}
kernel = KS2[pick_block(192)]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
