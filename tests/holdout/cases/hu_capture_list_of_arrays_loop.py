"""a kernel sums a global list of arrays  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

TERMS = [jnp.ones((8, 128), jnp.float32) * i for i in range(3)]


def kernel(x_ref, o_ref):
    acc = x_ref[...]
    for t in TERMS:
        acc = acc + t  # expect: PAL003
    o_ref[...] = acc


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
