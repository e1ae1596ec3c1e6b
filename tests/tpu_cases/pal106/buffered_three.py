# expect: PAL106
"""Triple buffering asked for on a top-level pallas_call input."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((32, 128), jnp.float32)
y = pl.pallas_call(
    kernel,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0), pipeline_mode=pl.Buffered(3))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(y.sum())
