import jax, jax.numpy as jnp


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1

