"""A captured `jnp.asarray(np.arange(...))`, the common way to turn a numpy table into jax.
JAX: ValueError "... captures constants [f32[128]]"."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

table = jnp.asarray(np.arange(128, dtype=np.float32))


def table_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + table  # expect: PAL003


print(pl.pallas_call(table_kernel, out_shape=out_shape, interpret=True)(x).sum())
