# expect: clean
"""A dynamic offset on the rows (sublanes) that is not a multiple of 8: rows are not lanes."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def rows(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[pl.ds(i * 3, 8), :]


x = jnp.ones((32, 128), jnp.float32)
y = pl.pallas_call(
    rows,
    grid=(4,),
    in_specs=[pl.BlockSpec((32, 128), lambda i: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct((32, 128), jnp.float32),
)(x)
print(y.sum())
