"""`jax.vmap(pl.pallas_call(kernel, ...))` over a batch, the call built in a lambda-free helper.
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 3
    return ()  # expect: PAL001


def batched(xs):
    call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(xs.shape[1:], xs.dtype), interpret=True)
    return jax.vmap(call)(xs)


print(batched(jnp.ones((2, 8, 128), jnp.float32)).sum())
