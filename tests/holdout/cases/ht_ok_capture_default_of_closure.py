"""a kernel made by a factory closes over an array the factory built  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make(scale):
    w = float(scale)

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w

    return kernel


print(pl.pallas_call(make(2.0), out_shape=S, interpret=True)(x).sum())
