# expect: PAL103
"""Sorting each row inside the kernel (top-k style)."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def sort_kernel(x_ref, o_ref):
    v = x_ref[...]
    o_ref[...] = jnp.sort(v, axis=-1)


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
y = pl.pallas_call(sort_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
