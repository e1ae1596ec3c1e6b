import jax


def pair(x):
    r = jax.new_ref(x)
    return r, r
