"""pkg re-exports ops.run; main calls pkg.run('copy').  JAX: runs."""
import jax.numpy as jnp
import pkg

print(pkg.run('copy', jnp.ones((8, 128), jnp.float32)).sum())
