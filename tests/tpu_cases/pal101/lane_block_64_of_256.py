# expect: PAL101
"""An (8, 64) f32 block over an (8, 256) array, as a tutorial tiling the lanes by 64."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0


x = jnp.arange(8 * 256, dtype=jnp.float32).reshape(8, 256)
out = pl.pallas_call(
    add_one,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 64), lambda j: (0, j))],
    out_specs=pl.BlockSpec((8, 64), lambda j: (0, j)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(out.sum())
