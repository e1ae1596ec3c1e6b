"""Index maps return tuples; the kernel returns nothing.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def index_map(i):
    return (i, 0)

spec = pl.BlockSpec((8, 128), index_map)
print(pl.pallas_call(kernel, out_shape=S, grid=(1,), in_specs=[spec], out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)), interpret=True)(x).sum())
