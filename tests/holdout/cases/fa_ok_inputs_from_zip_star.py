"""call(*zip(*pairs))[0]... two inputs from a list of pairs (matching)  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


pairs = [(x, 1), (x, 2)]
def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(*[a for a, _ in pairs]))
