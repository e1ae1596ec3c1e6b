"""A config dataclass in another module holds a functools.partial of the kernel as a default;
the launch passes one input where the kernel takes two.  JAX: TypeError missing argument."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kern.config import OpConfig

cfg = OpConfig()
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(cfg.body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
