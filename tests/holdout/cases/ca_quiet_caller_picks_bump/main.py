"""ops.run("copy") in ops; main (no pallas import) calls run('bump').  JAX: ValueError should return None."""
import jax.numpy as jnp
from ops import run

print(run('bump', jnp.ones((8, 128), jnp.float32)).sum())
