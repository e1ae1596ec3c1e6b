"""lax.cond in a kernel: its branches return values, as they must.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    v = jax.lax.cond(pl.program_id(0) == 0, lambda: x_ref[...] + 1, lambda: x_ref[...])
    o_ref[...] = v
print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
