"""KERNELS = [make(s) for s in (1.0, 2.0)]; make's kernel returns a value unless s == 1; KERNELS[1].  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make(s):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * s
        if s != 1.0:
            return o_ref[...]  # expect: PAL001

    return kernel


KERNELS = [make(s) for s in (1.0, 2.0)]
kernel = KERNELS[1]

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
