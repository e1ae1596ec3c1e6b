"""`kernel = _causal_kernel if causal else _full_kernel` in an attention-style op.
JAX: ValueError "... should return None" (the causal branch is launched)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _full_kernel(s_ref, o_ref):
    o_ref[...] = jax.nn.softmax(s_ref[...], axis=-1)


def _causal_kernel(s_ref, o_ref):
    rows = jax.lax.broadcasted_iota(jnp.int32, s_ref.shape, 0)
    cols = jax.lax.broadcasted_iota(jnp.int32, s_ref.shape, 1)
    p = jax.nn.softmax(jnp.where(cols <= rows, s_ref[...], -jnp.inf), axis=-1)
    o_ref[...] = p
    return p  # expect: PAL001


def softmax(s, causal):
    kernel = _causal_kernel if causal else _full_kernel
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(s.shape, s.dtype), interpret=True)(s)


s = jnp.ones((128, 128), jnp.float32)
print(softmax(s, causal=False).sum(), softmax(s, causal=True).sum())
