# expect: PAL101
"""A 1-D array in blocks of 100."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0


x = jnp.zeros((1000,), jnp.float32)
print(pl.pallas_call(kernel, grid=(10,), in_specs=[pl.BlockSpec((100,), lambda i: (i,))],
                     out_specs=pl.BlockSpec((100,), lambda i: (i,)),
                     out_shape=jax.ShapeDtypeStruct((1000,), jnp.float32))(x).sum())
