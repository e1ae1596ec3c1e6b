"""A partial chain that never binds the keyword-only `shift`.
JAX: TypeError "affine_kernel() missing 1 required keyword-only argument: 'shift'"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def affine_kernel(x_ref, o_ref, *, scale, shift):
    o_ref[...] = x_ref[...] * scale + shift


x = jnp.ones((8, 128), jnp.float32)
scaled = functools.partial(affine_kernel, scale=2.0)
kernel = functools.partial(scaled, scale=3.0)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())  # expect: PAL004
