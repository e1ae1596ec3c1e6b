import jax
import jax.numpy as jnp

__all__ = ["gelu_kernel", "relu_kernel"]


def gelu_kernel(x_ref, o_ref):
    return jax.nn.gelu(x_ref[...])  # expect: PAL001


def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0.0)


def _private_kernel(x_ref, o_ref):
    return x_ref[...]
