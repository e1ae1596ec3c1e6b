# expect: clean
"""Moving int8 data without arithmetic."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((32, 128), jnp.int8)
y = pl.pallas_call(copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.astype(jnp.int32).sum())
