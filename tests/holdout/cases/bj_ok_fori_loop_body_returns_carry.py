"""A lax.fori_loop body returns its carry, as it must.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    def body(i, acc):
        return acc + x_ref[...]
    o_ref[...] = jax.lax.fori_loop(0, 2, body, jnp.zeros_like(x_ref[...]))
print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
