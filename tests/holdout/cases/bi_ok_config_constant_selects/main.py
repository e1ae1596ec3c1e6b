"""A config module's constant selects the kernel in a package module.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from ops.select import kernel
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
