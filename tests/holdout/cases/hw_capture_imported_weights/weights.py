import jax.numpy as jnp

BIAS = jnp.ones((8, 128), jnp.float32)
