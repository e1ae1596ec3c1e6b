# expect: PAL103
"""Reversing rows with lax.rev."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def reverse_rows(x_ref, o_ref):
    o_ref[...] = lax.rev(x_ref[...], (0,))


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
y = pl.pallas_call(reverse_rows, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
