"""A template method run() calls self._kernel(); the mixin Fancy overrides it.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


KS = {"copy": copy, "bump": bump}


class Base:
    def _kernel(self):
        return copy

    def run(self, v):
        return pl.pallas_call(self._kernel(), out_shape=S, interpret=True)(v)


class BumpMixin:
    def _kernel(self):
        return bump


class Plain(Base):
    pass


class Fancy(BumpMixin, Base):
    pass


print(Fancy().run(x).sum())
