"""A chain of responsibility: the first handler whose accepts(n) holds gives the kernel (n=10).  JAX: runs."""
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
    return x_ref[...] + 1


KS = {"copy": copy, "bump": bump}


class Small:
    def accepts(self, n):
        return n < 100

    def kernel(self):
        return copy


class Large:
    def accepts(self, n):
        return True

    def kernel(self):
        return bump


HANDLERS = [Small(), Large()]


def pick(n):
    for h in HANDLERS:
        if h.accepts(n):
            return h.kernel()
    raise ValueError(n)


kernel = pick(10)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
