# expect: PAL106
"""Dimension semantics given to a launch with no grid."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                   compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))(x)
print(y.sum())
