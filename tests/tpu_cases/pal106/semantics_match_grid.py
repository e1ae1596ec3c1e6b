# expect: clean
"""Semantics for each grid dimension."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((16, 256), jnp.float32)
spec = pl.BlockSpec((8, 128), lambda i, j: (i, j))
y = pl.pallas_call(kernel, grid=(2, 2), in_specs=[spec], out_specs=spec,
                   out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                   compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")))(x)
print(y.sum())
