"""A captured array derived by arithmetic from a jnp array (`jnp.arange(...) * 0.5 + 1`).
JAX: ValueError "... captures constants [f32[128]]"."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

ramp = jnp.arange(128, dtype=jnp.float32) * 0.5 + 1.0


def ramp_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * ramp  # expect: PAL003


print(pl.pallas_call(ramp_kernel, out_shape=out_shape, interpret=True)(x).sum())
