"""ops.run("copy") in ops; main (no pallas import) calls run('copy').  JAX: runs."""
import jax.numpy as jnp
from ops import run

print(run('copy', jnp.ones((8, 128), jnp.float32)).sum())
