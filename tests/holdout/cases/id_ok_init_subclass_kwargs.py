"""__init_subclass__ registers subclasses by a class keyword  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1

REGISTRY = {}


class Base:
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        REGISTRY[name] = cls


class Fast(Base, name="fast"):
    kernel = staticmethod(bump)


class Safe(Base, name="safe"):
    kernel = staticmethod(copy)


kernel = REGISTRY["safe"].kernel

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
