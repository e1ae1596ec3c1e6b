"""@pl.when(pl.program_id(0) < NUM_STEPS) body returns a value: the condition is traced.  JAX: TypeError (pl.when body under a traced condition returns a value)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

NUM_STEPS = 3


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    @pl.when(pl.program_id(0) < NUM_STEPS)
    def _():
        return o_ref[...]  # expect: PAL007

print(pl.pallas_call(kernel, out_shape=S, grid=(1,), interpret=True)(x).sum())
