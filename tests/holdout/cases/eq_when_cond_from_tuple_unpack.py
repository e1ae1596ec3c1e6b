"""cond, _ = (pid == 0, None); @pl.when(cond) body returns  JAX: TypeError (cond branches)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    first, last = pl.program_id(0) == 0, pl.program_id(0) == 1

    @pl.when(last)
    def _():
        return o_ref[...] * 2  # expect: PAL007


print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
