import jax.numpy as jnp


def tanh_kernel(x_ref, o_ref):
    o_ref[...] = jnp.tanh(x_ref[...])
    return jnp.tanh(x_ref[...])  # expect: PAL001


def identity_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
