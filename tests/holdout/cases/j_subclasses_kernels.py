"""Kernels found by walking Base.__subclasses__().  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Base:
    @staticmethod
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...]

class Negate(Base):
    @staticmethod
    def kernel(x_ref, o_ref):
        return -x_ref[...]  # expect: PAL001
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
for cls in Base.__subclasses__():
    print(cls.__name__, call(cls.kernel, x).sum())
