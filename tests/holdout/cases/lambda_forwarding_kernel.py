"""A lambda kernel forwarding to a body that returns a value (the lambda's value is that value).
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scale_body(x_ref, o_ref, factor):
    o_ref[...] = x_ref[...] * factor
    return o_ref[...]


x = jnp.ones((8, 128), jnp.float32)
call = pl.pallas_call(
    lambda x_ref, o_ref: _scale_body(x_ref, o_ref, 4.0),  # expect: PAL001
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    interpret=True,
)
print(call(x).sum())
