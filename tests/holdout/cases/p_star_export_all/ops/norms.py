import jax.numpy as jnp

__all__ = ["rms_kernel"]


def rms_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x / jnp.sqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)
