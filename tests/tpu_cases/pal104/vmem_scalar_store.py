# expect: PAL104
"""Marking one element of a VMEM output."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def mark_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    o_ref[0, 0] = 1.0


x = jnp.zeros((8, 128), jnp.float32)
y = pl.pallas_call(mark_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
