# expect: clean
"""A weight that stays resident (its whole array, index_map of zeros) is buffered once: 8 + 4 + 4 MiB."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_bias(x_ref, b_ref, o_ref):
    o_ref[...] = x_ref[...] + b_ref[:512, :]


x = jnp.ones((1024, 1024), jnp.float32)
bias = jnp.ones((2048, 1024), jnp.float32)
y = pl.pallas_call(
    add_bias,
    grid=(2,),
    in_specs=[pl.BlockSpec((512, 1024), lambda i: (i, 0)), pl.BlockSpec(bias.shape, lambda i: (0, 0))],
    out_specs=pl.BlockSpec((512, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x, bias)
print(y.sum())
