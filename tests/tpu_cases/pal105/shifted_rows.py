# expect: PAL105
"""Reading the next block of rows: the last step reads past the array."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = np.arange(16 * 128, dtype=np.float32).reshape(16, 128)
y = pl.pallas_call(
    copy,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (i + 1, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32),
)(x)
print(float(y.sum()))
