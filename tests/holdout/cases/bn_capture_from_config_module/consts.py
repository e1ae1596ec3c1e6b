import jax.numpy as jnp

SCALE = jnp.full((8, 128), 2.0)
