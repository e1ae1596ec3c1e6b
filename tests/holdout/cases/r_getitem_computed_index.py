"""operator.getitem(KERNELS, len(KERNELS) - 1): the last kernel by computed index.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def a(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def b(x_ref, o_ref):
    return x_ref[...] - 1  # expect: PAL001

KERNELS = [a, b]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(operator.getitem(KERNELS, len(KERNELS) - 1), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
