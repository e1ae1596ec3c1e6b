"""A method kernel `self._kernel` bound with functools.partial; returns nothing.
JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


class RMSNormLayer:
    def __init__(self, eps):
        self.eps = eps

    def _kernel(self, x_ref, o_ref, *, eps):
        x = x_ref[...]
        o_ref[...] = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)

    def forward(self, x):
        kernel = functools.partial(self._kernel, eps=self.eps)
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(RMSNormLayer(1e-6).forward(jnp.ones((8, 128), jnp.float32)).sum())
