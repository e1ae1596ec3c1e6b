# expect: PAL102
"""No grid: the whole (2048, 2048) f32 array in and out of VMEM, 16 MiB each."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def negate(x_ref, o_ref):
    o_ref[...] = -x_ref[...]


x = jnp.ones((2048, 2048), jnp.float32)
y = pl.pallas_call(negate, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
