"""main writes the kernel; pkg.ops launches what it is given  JAX: runs."""
import jax.numpy as jnp
from pkg import ops


def my_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


print(ops.run(my_kernel, jnp.ones((8, 128))).sum())
