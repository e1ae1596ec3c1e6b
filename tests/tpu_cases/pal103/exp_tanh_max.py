# expect: clean
"""Ordinary elementwise math and a reduction."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def softplus(x_ref, o_ref):
    v = x_ref[...]
    o_ref[...] = jnp.tanh(jnp.exp(v) - jnp.max(v, axis=1, keepdims=True))


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
y = pl.pallas_call(softplus, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
