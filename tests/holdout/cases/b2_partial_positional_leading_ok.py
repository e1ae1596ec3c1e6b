"""The kernel's leading parameters are static settings bound POSITIONALLY with functools.partial
(`partial(kernel, scale, cap)`), so pallas_call's refs fill the rest.  JAX: runs."""
import functools
import math

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def softcap_kernel(scale, cap, x_ref, o_ref):
    o_ref[...] = cap * jnp.tanh(x_ref[...] * scale / cap)


def softcap(x, head_dim=128, cap=30.0):
    kernel = functools.partial(softcap_kernel, 1.0 / math.sqrt(head_dim), cap)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(softcap(jnp.ones((8, 128), jnp.float32)).sum())
