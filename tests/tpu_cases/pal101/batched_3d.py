# expect: clean
"""A batch dimension blocked by 1, tiles (8, 128) below it."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = jnp.tanh(x_ref[...])


x = jnp.zeros((3, 16, 256), jnp.float32)
spec = pl.BlockSpec((1, 8, 128), lambda b, i, j: (b, i, j))
print(pl.pallas_call(kernel, grid=(3, 2, 2), in_specs=[spec], out_specs=spec,
                     out_shape=jax.ShapeDtypeStruct(x.shape, jnp.float32))(x).sum())
