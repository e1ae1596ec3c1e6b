"""A Python float as a kernel parameter default (`bias=_BIAS`, _BIAS = 1.0).
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

_BIAS = 1.0


def kernel(x_ref, o_ref, bias=_BIAS):
    o_ref[...] = x_ref[...] + bias


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
