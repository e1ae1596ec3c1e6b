import jax.numpy as jnp

SCALE = 2.0
