"""A launcher raises for a non-callable kernel before it launches.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def run(kernel, x):
    if not callable(kernel):
        raise TypeError(f"not a kernel: {kernel!r}")
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(x)

print(run(copy, x).sum())
