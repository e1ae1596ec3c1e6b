"""The kernel picks between two branch functions with `return jax.lax.cond(...)`; both branches only
store (one ends in a bare `return`), so cond gives None.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def clamp_kernel(x_ref, o_ref):
    def positive():
        o_ref[...] = x_ref[...]

    def negative():
        o_ref[...] = jnp.zeros_like(x_ref[...])
        return

    return jax.lax.cond(x_ref[0, 0] > 0, positive, negative)


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(clamp_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
