# expect: PAL107
"""A fori_loop stepping a lane window by 64 lanes into an output column."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def sum_windows(x_ref, o_ref):
    def body(j, acc):
        return acc + x_ref[:, pl.ds(j * 64, 128)]

    o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros((8, 128), jnp.float32))


x = jnp.ones((8, 512), jnp.float32)
y = pl.pallas_call(sum_windows, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(x)
print(y.sum())
