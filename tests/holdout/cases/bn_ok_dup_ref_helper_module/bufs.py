import jax


def pair(x):
    return jax.new_ref(x), jax.new_ref(x)
