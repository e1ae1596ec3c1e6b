# expect: clean
"""A block equal to a small whole array: allowed whatever its size."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * x_ref[...]


x = jnp.ones((5, 100), jnp.float32)
y = pl.pallas_call(
    kernel,
    in_specs=[pl.BlockSpec((5, 100), lambda: (0, 0))],
    out_specs=pl.BlockSpec((5, 100), lambda: (0, 0)),
    out_shape=jax.ShapeDtypeStruct((5, 100), jnp.float32),
)(x)
print(y.sum())
