"""when = pl.when; @when(program_id == 0) body writes o_ref.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


when = pl.when


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    @when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = o_ref[...] + 1


print(pl.pallas_call(kernel, out_shape=S, grid=(1,), interpret=True)(x).sum())
