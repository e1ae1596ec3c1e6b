# expect: PAL107
"""Multiplying two int8 inputs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def multiply(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] * b_ref[...]


x = jnp.ones((32, 128), jnp.int8)
y = pl.pallas_call(multiply, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, x)
print(y.astype(jnp.int32).sum())
