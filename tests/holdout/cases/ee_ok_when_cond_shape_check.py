"""@pl.when(x_ref.shape[0] > 4): a Python bool; the body's value is dropped.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    @pl.when(x_ref.shape[0] > 4)
    def _():
        o_ref[...] = x_ref[...]
        return 1

    o_ref[...] += x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), interpret=True)(x).sum())
