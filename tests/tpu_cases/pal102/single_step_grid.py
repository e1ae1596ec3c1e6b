# expect: clean
"""A grid of one step over the first half of the array: 2 x 8 MiB of tiles."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((4096, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(1,),
    in_specs=[pl.BlockSpec((2048, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((2048, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(y[:2048].sum())
