"""itertools.compress selects the kernels whose flag is set.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def selected(x_ref, o_ref):
    return x_ref[...] - 2  # expect: PAL001

chosen = next(itertools.compress([good, selected], [0, 1]))
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(chosen, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
