"""A subclass picks its kernel and falls back to `super().kernel()`; the scaled kernel returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def _base_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def _scaled_kernel(x_ref, o_ref):
    return x_ref[...] * 3  # expect: PAL001

class Base:
    def kernel(self):
        return _base_kernel

    def run(self, x):
        return pl.pallas_call(self.kernel(), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

class Scaled(Base):
    def kernel(self):
        if self.scale:
            return _scaled_kernel
        return super().kernel()

    def __init__(self, scale):
        self.scale = scale

x = jnp.ones((8, 128))
print(Base().run(x).sum(), Scaled(True).run(x).sum())
