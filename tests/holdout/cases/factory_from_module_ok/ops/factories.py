"""Kernel factories: `make_activation_kernel(fn)` returns an inner def."""
import jax.numpy as jnp


def make_activation_kernel(activation, *, clip=None):
    def kernel(x_ref, o_ref):
        y = activation(x_ref[...])
        if clip is not None:
            y = jnp.minimum(y, clip)
        o_ref[...] = y

    return kernel
