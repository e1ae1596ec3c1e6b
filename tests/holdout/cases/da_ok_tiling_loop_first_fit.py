"""the first tile in TILES dividing 128 picks a kernel: TILES = (256, 64, 128).  JAX: runs."""
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
    return x_ref[...] + 1


KS = {"copy": copy, "bump": bump}


TILES = (256, 64, 128)
BY_TILE = {256: copy, 128: bump, 64: copy}


def pick(n):
    for t in TILES:
        if n % t == 0:
            return BY_TILE[t]
    return copy


print(pl.pallas_call(pick(x.shape[1]), out_shape=S, interpret=True)(x).sum())
