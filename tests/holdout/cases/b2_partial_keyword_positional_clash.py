"""The kernel's first parameter is the static `scale` (FlashAttention-style `sm_scale` first),
bound by keyword with functools.partial; pallas_call then passes the refs positionally, so the
first ref lands on `scale` as well.
JAX: TypeError "softcap_kernel() got multiple values for argument 'scale'"."""
import functools
import math

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def softcap_kernel(scale, cap, x_ref, o_ref):
    o_ref[...] = cap * jnp.tanh(x_ref[...] * scale / cap)


def softcap(x, head_dim=128, cap=30.0):
    kernel = functools.partial(softcap_kernel, scale=1.0 / math.sqrt(head_dim), cap=cap)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)  # expect: PAL004


print(softcap(jnp.ones((8, 128), jnp.float32)).sum())
