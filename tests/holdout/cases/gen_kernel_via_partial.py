"""A generator kernel (a stray `yield` left from a refactor) reached through functools.partial.
JAX: TypeError "object of type 'NoneType' has no len()"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scale_kernel(x_ref, o_ref, *, factor):  # expect: PAL005
    for i in range(x_ref.shape[0] // 8):
        o_ref[pl.ds(i * 8, 8), :] = x_ref[pl.ds(i * 8, 8), :] * factor
        yield i


x = jnp.ones((16, 128), jnp.float32)
kernel = functools.partial(_scale_kernel, factor=2.0)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
