"""A kernel factory is given an array; the kernel closes over it.  JAX: ValueError "captures constants"."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make_kernel(bias):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + bias  # expect: PAL003
    return kernel

kernel = make_kernel(jnp.ones((8, 128)) * 3)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
