"""ops calls run(x); main calls run(x, fused=False).  JAX: runs."""
import jax.numpy as jnp
import ops

print(ops.run(jnp.ones((8, 128), jnp.float32), fused=False).sum())
