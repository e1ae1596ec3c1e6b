"""a module constant's remainder decides the return (the return does not run)  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
import sys, abc, typing as t
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


BLOCK = 256


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    if BLOCK % 128:
        return o_ref[...]


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
