# expect: PAL107
"""Adding a bias to int8 activations in the kernel."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_bias(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 3


x = jnp.ones((32, 128), jnp.int8)
y = pl.pallas_call(add_bias, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.int32).sum())
