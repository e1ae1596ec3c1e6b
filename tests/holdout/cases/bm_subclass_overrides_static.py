"""A subclass overrides a staticmethod kernel; the base launches self.kernel picks bump_kernel.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump_kernel(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

class Base:
    kernel = staticmethod(copy_kernel)

    def launch(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

class Fast(Base):
    kernel = staticmethod(bump_kernel)

x = jnp.ones((8, 128), jnp.float32)
print(Fast().launch(x).sum())
kernel = copy_kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
