# expect: PAL102
"""A library wrapper: block sizes are keyword defaults, the call a functools.partial (20 MiB)."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _kernel(x_ref, o_ref, *, alpha):
    o_ref[...] = x_ref[...] * alpha


@functools.partial(jax.jit, static_argnames=("block_rows", "block_cols"))
def scaled(x, block_rows=1280, block_cols=1024):
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, block_cols), lambda i, j: (i, j))
    return pl.pallas_call(
        functools.partial(_kernel, alpha=0.5),
        grid=(rows // block_rows, cols // block_cols),
        in_specs=[spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    )(x)


print(scaled(jnp.ones((2560, 1024), jnp.float32)).sum())
