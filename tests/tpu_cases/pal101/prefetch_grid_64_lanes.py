# expect: PAL101
"""A scalar-prefetch grid spec whose blocks are 64 lanes wide."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def gather_kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


idx = jnp.array([1, 0], jnp.int32)
x = jnp.ones((16, 128), jnp.float32)
spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(2, 2),
    in_specs=[pl.BlockSpec((8, 64), lambda i, j, idx: (idx[i], j))],
    out_specs=pl.BlockSpec((8, 64), lambda i, j, idx: (i, j)),
)
print(pl.pallas_call(gather_kernel, grid_spec=spec, out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32))(idx, x).sum())
