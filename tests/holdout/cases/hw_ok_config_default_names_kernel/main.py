"""a config dataclass's default names the kernel, looked up on a module  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
import kernels
from config import Config

cfg = Config(kernel_name="copy")
kernel = getattr(kernels, cfg.kernel_name)

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
