"""A functools.partial of a functools.partial of the kernel.
JAX: ValueError "... should return None"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def affine_kernel(x_ref, o_ref, *, scale, shift):
    o_ref[...] = x_ref[...] * scale + shift
    return scale  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
scaled = functools.partial(affine_kernel, scale=2.0)
kernel = functools.partial(scaled, shift=1.0)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
