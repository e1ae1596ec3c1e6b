"""Notebook style redefinition: the first `kernel` returns a value and IS launched before the
second (fine) definition replaces it.  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]
    return o_ref[...]  # expect: PAL001


try:
    print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x, x).sum())
finally:

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + 1

    print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x).sum())
