"""a class body loop fills KERNELS via make(n) for n in (0, 1); Op.KERNELS[1].  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make(n):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + n
        if n:
            return o_ref[...]  # expect: PAL001

    return kernel


class Op:
    KERNELS = [make(n) for n in (0, 1)]


kernel = Op.KERNELS[1]

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
