"""The kernel is defined differently in the two branches of a module-level `if` in kernels.py;
both return None (with different arities; the live one takes 2 refs).  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import gelu_kernel

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(gelu_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
