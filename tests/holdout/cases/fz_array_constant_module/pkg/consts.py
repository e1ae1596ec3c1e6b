import jax.numpy as jnp

W = jnp.full((8, 128), 2.0)
SCALE = 2.0
