# expect: PAL105
"""Every other block, over a grid as long as the number of blocks."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = np.ones((32, 128), np.float32)
y = pl.pallas_call(
    copy,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (2 * i, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct((32, 128), jnp.float32),
)(x)
print(float(y.sum()))
