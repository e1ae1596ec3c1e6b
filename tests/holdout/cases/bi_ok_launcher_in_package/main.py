"""main passes a kernel from one submodule to a launcher in another.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from ops.launch import run
from ops.kernels import copy
x = jnp.ones((8, 128), jnp.float32)
print(run(copy, x).sum())
