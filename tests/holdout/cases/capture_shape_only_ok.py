"""A captured jnp array used only for static metadata (`.shape`, `.dtype`) and a Python float.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

positions = jnp.arange(128, dtype=jnp.float32)
scale = 0.5
x = jnp.ones((8, 128), jnp.float32)


def kernel(x_ref, o_ref):
    n = positions.shape[0]
    o_ref[...] = (x_ref[...] * scale * n).astype(positions.dtype)


print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
