"""A fluent builder: with_kernel() stores the kernel and returns self; build() launches it.  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def square_kernel(x_ref, o_ref):
    return x_ref[...] ** 2  # expect: PAL001

class Launch:
    def __init__(self):
        self.kernel = None

    def with_kernel(self, kernel):
        self.kernel = kernel
        return self

    def build(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)

x = jnp.ones((8, 128), jnp.float32)
print(Launch().with_kernel(square_kernel).build(x)(x).sum())
