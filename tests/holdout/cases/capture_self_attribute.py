"""A closure kernel in a method reads `self.bias`, a jnp array set in __init__ (module style).
JAX: ValueError "... captures constants [f32[8,128]]"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


class BiasAdd:
    def __init__(self):
        self.bias = jnp.full((8, 128), 0.5, jnp.float32)

    def __call__(self, x):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + self.bias  # expect: PAL003

        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(BiasAdd()(jnp.ones((8, 128), jnp.float32)).sum())
