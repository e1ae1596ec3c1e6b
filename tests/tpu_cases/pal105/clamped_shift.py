# expect: clean
"""The shifted read clamped with jnp.minimum: stays inside."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = np.ones((16, 128), np.float32)
y = pl.pallas_call(
    copy,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (jnp.minimum(i + 1, 1), 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32),
)(x)
print(float(y.sum()))
