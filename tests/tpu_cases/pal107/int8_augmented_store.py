# expect: PAL107
"""Accumulating into an int8 output with +=."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def accumulate(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    o_ref[...] += x_ref[...]


x = jnp.ones((32, 128), jnp.int8)
y = pl.pallas_call(accumulate, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.int32).sum())
