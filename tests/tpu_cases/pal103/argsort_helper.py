# expect: PAL103
"""argsort called from a helper the kernel uses (the TPU refuses it as it refuses sort)."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def ranks(v):
    return jnp.argsort(v, axis=-1).astype(jnp.float32)


def rank_kernel(x_ref, o_ref):
    o_ref[...] = ranks(x_ref[...])


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
y = pl.pallas_call(rank_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
