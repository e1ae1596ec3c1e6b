"""returns lax.cond of branches that return nothing  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    def a():
        o_ref[...] = x_ref[...]

    def b():
        o_ref[...] = x_ref[...] * 2

    return jax.lax.cond(x_ref[0, 0] > 0, a, b)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
