"""names, kernels = zip(*PAIRS); kernels[0] is the valid one.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def cube(x_ref, o_ref):
    return x_ref[...] ** 3

PAIRS = [("copy", good), ("cube", cube)]
names, kernels = zip(*PAIRS)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernels[0], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
