"""main sets a config module's constant before the kernel module reads it at import  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from lib import config

config.FAST = False
from lib.choose import KERNEL as kernel  # noqa: E402

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
