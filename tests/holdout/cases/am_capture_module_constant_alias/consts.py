import jax.numpy as jnp

TABLE = jnp.arange(128, dtype=jnp.float32)
SCALE = 2.0
