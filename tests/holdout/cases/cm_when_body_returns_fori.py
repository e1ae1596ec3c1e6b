"""A pl.when body returns fori_loop's int carry.  JAX: error (a pl.when body returns a value)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = x_ref[...]
        return jax.lax.fori_loop(0, 2, lambda i, c: c + 1, 0)  # expect: PAL007


print(pl.pallas_call(kernel, out_shape=S, grid=(1,), interpret=True)(x).sum())
