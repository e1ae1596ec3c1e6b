# expect: PAL101
"""Block sizes bound with functools.partial in a library-style op; 192 lanes."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] - y_ref[...]


def subtract(x, y, *, block_m, block_n):
    m, n = x.shape
    spec = pl.BlockSpec((block_m, block_n), lambda i, j: (i, j))
    return pl.pallas_call(
        _kernel,
        grid=(m // block_m, n // block_n),
        in_specs=[spec, spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    )(x, y)


sub = functools.partial(subtract, block_m=16, block_n=192)
a = jnp.ones((32, 384), jnp.float32)
print(sub(a, a).sum())
