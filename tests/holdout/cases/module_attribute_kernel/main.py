"""`import kernels as K` then `pl.pallas_call(K.tanh_kernel, ...)` (a module attribute).
JAX: ValueError "... should return None" (reported in kernels.py)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

import kernels as K

x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
print(pl.pallas_call(K.identity_kernel, out_shape=shape, interpret=True)(x).sum())
print(pl.pallas_call(K.tanh_kernel, out_shape=shape, interpret=True)(x).sum())
