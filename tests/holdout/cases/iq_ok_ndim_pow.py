"""2 ** ndim is an int  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

W = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128) / 1024


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2 ** W.ndim


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
