"""a kernel returns None on both branches  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, flag=True):
    o_ref[...] = x_ref[...]
    return None if flag else None

print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
