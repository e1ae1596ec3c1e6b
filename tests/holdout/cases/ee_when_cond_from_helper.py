"""The condition comes from a helper returning pl.program_id(0) == 0.  JAX: TypeError (cond branches)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def first_step():
    return pl.program_id(0) == 0


def kernel(x_ref, o_ref):
    @pl.when(first_step())
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)
        return 0  # expect: PAL007

    o_ref[...] += x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), interpret=True)(x).sum())
