"""config.py's MODE picks the kernel from kernels.py's table.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from config import MODE
from kernels import KERNELS

kernel = KERNELS[MODE]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
