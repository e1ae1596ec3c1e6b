"""The kernel and its launcher reach main through `from .kernels import *` re-exports in the
package __init__.  JAX: runs (VALID twin)."""
import jax.numpy as jnp

from mylib import elementwise, sigmoid_kernel

print(elementwise(sigmoid_kernel, jnp.zeros((8, 128), jnp.float32)).sum())
