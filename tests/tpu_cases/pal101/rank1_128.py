# expect: clean
"""A 1-D array in blocks of 128."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0


n, bn = 1024, 128
x = jnp.zeros((n,), jnp.float32)
print(pl.pallas_call(kernel, grid=(n // bn,), in_specs=[pl.BlockSpec((bn,), lambda i: (i,))],
                     out_specs=pl.BlockSpec((bn,), lambda i: (i,)),
                     out_shape=jax.ShapeDtypeStruct((n,), jnp.float32))(x).sum())
