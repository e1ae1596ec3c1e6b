"""An array built inside a jitted method from `self` config and captured by a closure kernel.
JAX: ValueError "... captures constants"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


class Rope:
    def __init__(self, dim):
        self.dim = dim

    def __call__(self, x):
        inv_freq = 1.0 / (10000.0 ** (jnp.arange(0, self.dim, dtype=jnp.float32) / self.dim))

        def rope_kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * jnp.cos(inv_freq)  # expect: PAL003

        return pl.pallas_call(rope_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(jax.jit(Rope(128))(jnp.ones((8, 128), jnp.float32)).sum())
