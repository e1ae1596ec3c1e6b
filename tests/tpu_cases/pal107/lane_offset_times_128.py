# expect: clean
"""A lane offset i * 128 without a hint."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def window(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[:, pl.ds(i * 128, 128)]


x = jnp.ones((8, 1024), jnp.float32)
y = pl.pallas_call(
    window,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 1024), lambda i: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (0, i)),
    out_shape=jax.ShapeDtypeStruct((8, 512), jnp.float32),
)(x)
print(y.sum())
