"""A package re-exports its kernels with `from .activations import *` (under `__all__`); the
caller picks one by attribute.  JAX: ValueError "should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

import ops

x = jnp.ones((8, 128), jnp.float32)
for name in ("relu_kernel", "gelu_kernel"):
    kernel = getattr(ops, name)
    print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
