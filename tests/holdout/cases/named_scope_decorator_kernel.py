"""The kernel itself decorated with `@jax.named_scope("...")`, which forwards the return value.
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@jax.named_scope("rsqrt_kernel")
def rsqrt_kernel(x_ref, o_ref):
    o_ref[...] = jax.lax.rsqrt(x_ref[...])
    return o_ref[...]  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(rsqrt_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
