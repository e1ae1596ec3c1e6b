"""a generator function picked from a table is the kernel  JAX: error (generator kernel)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def stepped(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]
    yield


TABLE = {"plain": copy, "stepped": stepped}
print(pl.pallas_call(TABLE["stepped"], out_shape=S, interpret=True)(x).sum())
