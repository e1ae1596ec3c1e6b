# expect: PAL101
"""int8 blocks of 16 rows: JAX accepts the (8, 128) rule, the compiler wants 32 rows."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((64, 256), dtype=jnp.int8)
y = pl.pallas_call(
    copy_kernel,
    grid=(4, 2),
    in_specs=[pl.BlockSpec(block_shape=(16, 128), index_map=lambda i, j: (i, j))],
    out_specs=pl.BlockSpec(block_shape=(16, 128), index_map=lambda i, j: (i, j)),
    out_shape=jax.ShapeDtypeStruct((64, 256), jnp.int8),
)(x)
print(y.sum())
