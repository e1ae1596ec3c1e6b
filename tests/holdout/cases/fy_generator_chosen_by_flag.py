"""a flag picks the yielding kernel  JAX: TypeError (generator kernel)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

STREAM = True


def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def streaming(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]
    yield None


kernel = streaming if STREAM else plain

print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
