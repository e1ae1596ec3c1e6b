"""getattr(self, "_kernel_" + self.mode) with the mode set in __init__.  JAX: ValueError "should return None"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Activation:
    def __init__(self, mode):
        self.mode = mode

    def _kernel_relu(self, x_ref, o_ref):
        o_ref[...] = jnp.maximum(x_ref[...], 0.0)

    def _kernel_tanh(self, x_ref, o_ref):
        return jnp.tanh(x_ref[...])  # expect: PAL001

    def __call__(self, x):
        kernel = getattr(self, "_kernel_" + self.mode)
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Activation("tanh")(jnp.ones((8, 128), jnp.float32)).sum())
