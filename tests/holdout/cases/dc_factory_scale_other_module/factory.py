import jax, jax.numpy as jnp

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make(scale):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * scale
        if scale != 1:
            return o_ref[...]  # expect: PAL001

    return kernel
