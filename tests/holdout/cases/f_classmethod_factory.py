"""A classmethod factory builds the kernel closure and `cls(kernel)`; the kernel returns.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class Op:
    def __init__(self, kernel):
        self.kernel = kernel

    @classmethod
    def softsign(cls):
        def kernel(x_ref, o_ref):
            x = x_ref[...]
            return x / (1 + jnp.abs(x))  # expect: PAL001
        return cls(kernel)

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Op.softsign()(jnp.ones((8, 128))).sum())
