"""A closure kernel inside a jitted function reads the function's parameter `scale`, which is NOT
static (only `eps` is): under jit it is a traced 0-d array.
JAX: ValueError "... captures constants [f32[]]"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@functools.partial(jax.jit, static_argnums=(1,))
def rms_norm(x, eps, scale):
    def kernel(x_ref, o_ref):
        v = x_ref[...]
        o_ref[...] = v * jax.lax.rsqrt(jnp.mean(v * v, axis=-1, keepdims=True) + eps) * scale  # expect: PAL003

    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(rms_norm(jnp.ones((8, 128), jnp.float32), 1e-6, 2.0).sum())
