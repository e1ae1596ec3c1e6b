"""`run_elementwise(kernel, x)` in the next file of the package forwards its kernel to pallas_call.
JAX: ValueError "... should return None"."""
import jax.numpy as jnp

from elementwise import run_elementwise


def cube_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] ** 3
    return x_ref[...] ** 3  # expect: PAL001


print(run_elementwise(cube_kernel, jnp.ones((16, 128), jnp.float32)).sum())
