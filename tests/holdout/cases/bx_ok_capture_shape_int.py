"""A nested kernel reads x.shape[0] of the op's array (a Python int).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def rows_plus(x):
    rows = x.shape[0]

    def rows_kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + rows

    return pl.pallas_call(rows_kernel, out_shape=S, interpret=True)(x)


print(rows_plus(x).sum())
