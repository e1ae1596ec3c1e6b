"""The kernel ends in `return lax.fori_loop(..., init=0.0)` (a float carry is a value).
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    def body(i, total):
        o_ref[pl.ds(i, 1), :] = x_ref[pl.ds(i, 1), :] * 2
        return total + 1.0

    return jax.lax.fori_loop(0, x_ref.shape[0], body, 0.0)  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
