"""a pl.when body returns a helper's array  JAX: error (pl.when body returns a value)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def doubled(ref):
    return ref[...] * 2


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    @pl.when(pl.program_id(0) == 0)
    def _():
        return doubled(x_ref)  # expect: PAL007

print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
