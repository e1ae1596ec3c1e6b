"""A lambda kernel forwarding to a body that returns None: the lambda's value is None.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scale_body(x_ref, o_ref, factor):
    o_ref[...] = x_ref[...] * factor


x = jnp.ones((8, 128), jnp.float32)
call = pl.pallas_call(
    lambda x_ref, o_ref: _scale_body(x_ref, o_ref, 4.0),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    interpret=True,
)
print(call(x).sum())
