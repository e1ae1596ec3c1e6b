"""a helper returns its value only when a module flag asks  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

KEEP = False


def finish(o_ref, v, keep):
    o_ref[...] = v
    return v if keep else None


def kernel(x_ref, o_ref):
    return finish(o_ref, x_ref[...], KEEP)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
