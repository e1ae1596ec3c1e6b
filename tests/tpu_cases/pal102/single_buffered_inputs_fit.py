# expect: clean
"""Two inputs single-buffered with pl.Buffered(1): 4 + 4 + 2 x 4 = 16 MiB (24 if double-buffered)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add(x_ref, w_ref, o_ref):
    o_ref[...] = x_ref[...] + w_ref[...]


x = jnp.ones((2048, 1024), jnp.float32)
w = jnp.ones((2048, 1024), jnp.float32)
once = pl.Buffered(1)
y = pl.pallas_call(
    add,
    grid=(2,),
    in_specs=[
        pl.BlockSpec((1024, 1024), lambda i: (i, 0), pipeline_mode=once),
        pl.BlockSpec((1024, 1024), lambda i: (i, 0), pipeline_mode=once),
    ],
    out_specs=pl.BlockSpec((1024, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x, w)
print(y.sum())
