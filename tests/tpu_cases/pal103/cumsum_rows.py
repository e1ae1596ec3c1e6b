# expect: PAL103
"""A running sum along the lanes, as a scan kernel would write it."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def prefix_sum(x_ref, o_ref):
    o_ref[...] = jnp.cumsum(x_ref[...], axis=1)


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
y = pl.pallas_call(prefix_sum, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
