"""functools.partial(kernel, **static) binds the keyword-only block sizes.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, *, rows, cols):
    o_ref[...] = x_ref[...] * (rows + cols)


static = dict(rows=8, cols=128)
print(pl.pallas_call(functools.partial(kernel, **static), out_shape=S, interpret=True)(x).sum())
