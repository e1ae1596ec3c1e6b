"""ops calls run(x); main calls run(x, fused=True).  JAX: error."""
import jax.numpy as jnp
import ops

print(ops.run(jnp.ones((8, 128), jnp.float32), fused=True).sum())
