"""A numpy array reduced to a scalar by .sum() scales the block.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
TABLE = np.arange(4, dtype=np.float32)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * TABLE.sum()
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
