"""A causal mask built at module level with `jax.lax.broadcasted_iota` and captured by the kernel
of a jitted attention-score helper.  JAX: ValueError "... captures constants [bool[8,128]]"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

_ROWS = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 0)
_COLS = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 1)
CAUSAL = _COLS <= _ROWS


def masked_scores_kernel(s_ref, o_ref, *, mask_value):
    o_ref[...] = jnp.where(CAUSAL, s_ref[...], mask_value)  # expect: PAL003


@jax.jit
def masked_scores(s):
    kernel = functools.partial(masked_scores_kernel, mask_value=-1e30)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(s.shape, s.dtype), interpret=True)(s)


print(masked_scores(jnp.ones((8, 128), jnp.float32)).sum())
