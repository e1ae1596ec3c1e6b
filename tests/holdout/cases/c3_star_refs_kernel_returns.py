"""A kernel written over `*refs` (as sglang-jax's ragged paged attention takes `*args`), its static
options bound by functools.partial: it unpacks its refs and returns the product instead of writing
it.  JAX: ValueError (the kernel must return None)."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scale_kernel(*refs, scale):
    x_ref, o_ref = refs
    del o_ref
    return x_ref[...] * scale  # expect: PAL001


def scale(x, factor):
    return pl.pallas_call(
        functools.partial(_scale_kernel, scale=factor),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,
    )(x)


print(scale(jnp.ones((8, 128), jnp.float32), 2.0).sum())
