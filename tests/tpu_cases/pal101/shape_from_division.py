# expect: PAL101
"""Block rows computed from the array: 16 // 4 = 4 rows."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]


x = jnp.ones((16, 256), jnp.float32)
steps = 4
block = (x.shape[0] // steps, x.shape[1])
print(pl.pallas_call(kernel, grid=(steps,), in_specs=[pl.BlockSpec(block, lambda i: (i, 0))],
                     out_specs=pl.BlockSpec(block, lambda i: (i, 0)),
                     out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x).sum())
