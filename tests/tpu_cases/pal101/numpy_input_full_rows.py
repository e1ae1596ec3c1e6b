# expect: clean
"""A NumPy input: rows equal to the array's, lanes in 128s."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 0.5


x = np.ones((24, 384), np.float32)
print(pl.pallas_call(kernel, grid=(3,), in_specs=[pl.BlockSpec((24, 128), lambda j: (0, j))],
                     out_specs=pl.BlockSpec((24, 128), lambda j: (0, j)),
                     out_shape=jax.ShapeDtypeStruct(x.shape, jnp.float32))(x).sum())
