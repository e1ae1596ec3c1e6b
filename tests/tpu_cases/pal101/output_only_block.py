# expect: PAL101
"""Only the output is blocked badly: (8, 64) of (8, 128); the input is whole."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[:, :64]


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, grid=(2,), in_specs=[pl.BlockSpec((8, 128), lambda j: (0, 0))],
                     out_specs=pl.BlockSpec((8, 64), lambda j: (0, j)),
                     out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(x).sum())
