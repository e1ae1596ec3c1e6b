"""A kernel registry across modules: `@register(...)` decorates the kernels in activations.py, a
jitted op in ops.py looks the kernel up by name and launches it.  Both kernels store their result
(softplus ends in `return None`).  JAX: runs."""
import jax.numpy as jnp

from mylib.ops import apply_activation

x = jnp.ones((8, 128), jnp.float32)
print(apply_activation(x, "silu").sum())
print(apply_activation(x, "softplus").sum())
