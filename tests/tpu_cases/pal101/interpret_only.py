# expect: clean
"""The same bad tiling, but the launch says interpret=True: it never meets the TPU compiler."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0


x = jnp.ones((8, 256), jnp.float32)
out = pl.pallas_call(add_one, grid=(4,), in_specs=[pl.BlockSpec((8, 64), lambda j: (0, j))],
                     out_specs=pl.BlockSpec((8, 64), lambda j: (0, j)),
                     out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
print(out.sum())
