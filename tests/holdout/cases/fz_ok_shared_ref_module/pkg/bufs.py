import jax, jax.numpy as jnp

x = jnp.ones((8, 128), jnp.float32)
SRC = jax.new_ref(x)
DST = jax.new_ref(x)
ALIAS = SRC
