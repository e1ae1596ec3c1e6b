# expect: clean
"""int8 widened to int32 before the arithmetic, narrowed when stored."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_bias(x_ref, o_ref):
    o_ref[...] = (x_ref[...].astype(jnp.int32) + 3).astype(jnp.int8)


x = jnp.ones((32, 128), jnp.int8)
y = pl.pallas_call(add_bias, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.int32).sum())
