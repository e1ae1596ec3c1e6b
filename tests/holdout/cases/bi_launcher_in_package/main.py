"""main passes a kernel from one submodule to a launcher in another.  JAX: ValueError "should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from ops.launch import run
from ops.kernels import bump
x = jnp.ones((8, 128), jnp.float32)
print(run(bump, x).sum())
