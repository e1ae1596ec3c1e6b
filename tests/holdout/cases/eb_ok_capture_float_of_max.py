"""The kernel reads M = float(jnp.max(x)) (a Python float).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


M = float(jnp.max(x))


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * M


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
