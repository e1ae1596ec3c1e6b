"""The array arrives as a default parameter value; pallas_call passes only the refs.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BIAS = jnp.full((8, 128), 0.25, jnp.float32)

def kernel(x_ref, o_ref, bias=BIAS):
    o_ref[...] = x_ref[...] + bias  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
