"""A classmethod factory builds the kernel closure from a class constant.  JAX: ValueError "should return None"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Op:
    SCALE = 3.0

    @classmethod
    def make_kernel(cls):
        def kernel(x_ref, o_ref):
            return x_ref[...] * cls.SCALE  # expect: PAL001
        return kernel
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(Op.make_kernel(), x).sum())
