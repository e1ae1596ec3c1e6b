"""A jnp array smuggled in as a parameter DEFAULT of the kernel (`bias=_BIAS`); JAX never fills
it, so the default is a traced constant.  JAX: ValueError "... captures constants"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

_BIAS = jnp.ones((8, 128), jnp.float32)


def kernel(x_ref, o_ref, bias=_BIAS):
    o_ref[...] = x_ref[...] + bias  # expect: PAL003


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
