"""Generators only in helpers the kernel iterates over at trace time, plus a generator
expression; the kernel is a plain def.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _row_blocks(n, block):
    for start in range(0, n, block):
        yield pl.ds(start, block)


def kernel(x_ref, o_ref):
    for rows in _row_blocks(x_ref.shape[0], 8):
        o_ref[rows, :] = x_ref[rows, :] * sum(k for k in range(3))


x = jnp.ones((16, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
