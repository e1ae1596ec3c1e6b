"""A pallas_call kernel reads a float computed from a module-level array's shape.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128) / 1024
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
FACTOR = x.shape[0] * 2.0

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * FACTOR

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
