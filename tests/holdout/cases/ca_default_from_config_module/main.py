"""ops calls run(x, "copy"); main calls run(x), whose name defaults to config.MODE = 'bump'.  JAX: error."""
import jax.numpy as jnp
from ops import run

print(run(jnp.ones((8, 128), jnp.float32)).sum())
