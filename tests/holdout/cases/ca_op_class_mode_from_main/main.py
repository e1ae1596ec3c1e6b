"""ops runs Op()(x); main runs Op('bump')(x).  JAX: error."""
import jax.numpy as jnp
from ops import Op

print(Op('bump')(jnp.ones((8, 128), jnp.float32)).sum())
