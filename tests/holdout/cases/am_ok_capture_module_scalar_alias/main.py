"""The kernel reads C.SCALE, a Python float of a constants module imported as C.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
import consts as C


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * C.SCALE

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
