"""The kernel is a bound method reading a float attribute.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
class Scaled:
    def __init__(self, scale):
        self.scale = scale
    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.scale
pl.pallas_call(Scaled(2.0).kernel, out_shape=S, interpret=True)(x)
