"""A kernel factory is given a Python float; the kernel closes over it.  JAX: runs."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make_kernel(bias):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + bias
    return kernel

kernel = make_kernel(3.0)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
