"""out_shape from a helper returning a list of its argument's length  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def outs(names):
    return [S for _ in names]


def kernel(x_ref, a_ref):
    a_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=outs(['a', 'b']), interpret=True)(x))  # expect: PAL004
