"""A kernel closing over a 0-d NUMPY scalar `np.float32(1e-3)` (unlike a 0-d jnp array).
JAX: runs (the numpy scalar becomes a literal)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

eps = np.float32(1e-3)


def eps_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + eps


print(pl.pallas_call(eps_kernel, out_shape=out_shape, interpret=True)(x).sum())
