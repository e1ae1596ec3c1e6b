"""jax.tree.map over a dict of arrays  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

P = jax.tree.map(lambda a: a * 2, {'w': 1.5})


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * P['w']


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
