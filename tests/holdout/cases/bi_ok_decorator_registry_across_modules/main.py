"""A register decorator from one module fills a registry from another; main launches by name.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
import ops.kernels  # noqa: F401  (registers)
from ops.registry import get
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
print(pl.pallas_call(get("plain"), out_shape=S, interpret=True)(x).sum())
