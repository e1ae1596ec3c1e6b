""".item() of a jax array is a Python float, fine to close over.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

SCALE = jnp.float32(0.5).item()
SHAPE = jnp.ones((8, 128)).shape

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE + SHAPE[0]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
