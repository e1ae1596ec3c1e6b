"""an lru_cache'd factory makes a kernel that returns when scaled  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@functools.lru_cache(maxsize=None)
def make_kernel(scale):
    def k(x_ref, o_ref):
        if scale != 1:
            return x_ref[...] * scale
        o_ref[...] = x_ref[...]

    return k


kernel = make_kernel(1)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
