# expect: PAL101
"""Rows tiled by 4 in a library-style wrapper with a block-size constant."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


BLOCK_ROWS = 4


def scale_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def scale(x):
    rows, cols = x.shape
    spec = pl.BlockSpec((BLOCK_ROWS, cols), lambda i: (i, 0))
    return pl.pallas_call(
        scale_kernel,
        grid=(rows // BLOCK_ROWS,),
        in_specs=[spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct((rows, cols), x.dtype),
    )(x)


print(scale(jnp.ones((16, 128), jnp.float32)).sum())
