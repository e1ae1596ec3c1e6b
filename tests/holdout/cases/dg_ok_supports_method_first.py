"""next(k for k in IMPLS if k.supports(x)) with Fused supporting jnp.int8.  JAX: runs."""
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


class Impl:
    def __init__(self, kernel, dtypes):
        self.kernel = kernel
        self.dtypes = dtypes

    def supports(self, v):
        return v.dtype in self.dtypes


IMPLS = [Impl(bump, (jnp.int8,)), Impl(copy, (jnp.float32, jnp.bfloat16))]
kernel = next(i for i in IMPLS if i.supports(x)).kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
