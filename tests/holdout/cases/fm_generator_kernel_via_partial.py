"""functools.partial of a generator kernel  JAX: TypeError (generator kernel)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def gen(x_ref, o_ref, *, scale):  # expect: PAL005
    o_ref[...] = x_ref[...] * scale
    yield


kernel = functools.partial(gen, scale=2.0)

print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
