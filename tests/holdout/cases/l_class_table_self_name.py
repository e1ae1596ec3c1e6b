"""A class-level table indexed by a name set in __init__.  JAX: ValueError "should return None"."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def sin_kernel(x_ref, o_ref):
    o_ref[...] = jnp.sin(x_ref[...])

def cos_kernel(x_ref, o_ref):
    return jnp.cos(x_ref[...])  # expect: PAL001

class Trig:
    KERNELS = {"sin": sin_kernel, "cos": cos_kernel}

    def __init__(self, name):
        self.name = name

    def __call__(self, x):
        kernel = self.KERNELS[self.name]
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Trig("cos")(jnp.ones((8, 128), jnp.float32)).sum())
