# expect: PAL107
"""Subtracting in uint8 (pixel data)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def invert(x_ref, o_ref):
    o_ref[...] = 255 - x_ref[...]


x = jnp.ones((32, 128), jnp.uint8)
y = pl.pallas_call(invert, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.int32).sum())
