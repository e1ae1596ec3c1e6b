"""a class made inside a factory holds the kernel  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def build(scale):
    class Op:
        @staticmethod
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * scale
            if scale > 1:
                return o_ref[...]  # expect: PAL001

    return Op


print(pl.pallas_call(build(2.0).kernel, out_shape=S, interpret=True)(x).sum())
