# expect: clean
"""Writing one row of a VMEM output."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def row_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    o_ref[0:1, :] = jnp.ones((1, 128), jnp.float32)


x = jnp.zeros((8, 128), jnp.float32)
y = pl.pallas_call(row_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
