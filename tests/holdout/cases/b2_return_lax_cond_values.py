"""The kernel picks between two branch functions with `return jax.lax.cond(...)`; each branch stores
AND returns its block, so the kernel returns an array.  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def clamp_kernel(x_ref, o_ref):
    def positive():
        o_ref[...] = x_ref[...]
        return o_ref[...]

    def negative():
        o_ref[...] = jnp.zeros_like(x_ref[...])
        return o_ref[...]

    return jax.lax.cond(x_ref[0, 0] > 0, positive, negative)  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(clamp_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
