"""a class body's staticmethods read through the class dict  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Ops:
    @staticmethod
    def plain(x_ref, o_ref):
        o_ref[...] = x_ref[...]

    @staticmethod
    def fancy(x_ref, o_ref):
        return x_ref[...] * 2  # expect: PAL001


kernel = vars(Ops)["fancy"].__func__

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
