# expect: clean
"""bf16 tiles of (8, 128) over (32, 256)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + x_ref[...]


x = jnp.ones((32, 256), jnp.bfloat16)
block = pl.BlockSpec((8, 128), lambda i, j: (i, j))
y = pl.pallas_call(kernel, grid=(4, 2), in_specs=[block], out_specs=block,
                   out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.float32).sum())
