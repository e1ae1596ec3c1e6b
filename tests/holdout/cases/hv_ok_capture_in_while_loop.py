"""a kernel adds a global array in a fori-style while loop  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

BIAS = jnp.ones((8, 128), jnp.float32)


def kernel(x_ref, o_ref):
    acc = x_ref[...]
    i = 0
    while i < 2:
        acc = acc + BIAS.shape[0]
        i += 1
    o_ref[...] = acc


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
