# expect: clean
"""Blocks visited in reverse order: n - 1 - i stays inside."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


n = 4
x = np.ones((8 * n, 128), np.float32)
y = pl.pallas_call(
    copy,
    grid=(n,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (n - 1 - i, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct((8 * n, 128), jnp.float32),
)(x)
print(float(y.sum()))
