"""a kernel factory closes over an array it computes  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make(scale):
    w = scale * 2

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w

    return kernel


kernel = make(3.0)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
