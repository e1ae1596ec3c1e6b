"""ops runs Op()(x); main runs Op('copy')(x).  JAX: runs."""
import jax.numpy as jnp
from ops import Op

print(Op('copy')(jnp.ones((8, 128), jnp.float32)).sum())
