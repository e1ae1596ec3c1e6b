"""A numpy boolean mask (np.triu) captured and used in jnp.where inside the kernel.
JAX: ValueError "... captures constants [bool[8,128]]"."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

mask = np.triu(np.ones((8, 128), dtype=bool))


def mask_kernel(x_ref, o_ref):
    o_ref[...] = jnp.where(mask, x_ref[...], 0.0)  # expect: PAL003


print(pl.pallas_call(mask_kernel, out_shape=out_shape, interpret=True)(x).sum())
