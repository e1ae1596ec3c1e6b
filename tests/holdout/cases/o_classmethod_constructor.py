"""An alternative constructor (classmethod) looks the kernel up by name and stores it on the instance.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _gelu(x_ref, o_ref):
    return jax.nn.gelu(x_ref[...])  # expect: PAL001

def _relu(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0.0)

class Activation:
    _BY_NAME = {"gelu": _gelu, "relu": _relu}

    def __init__(self, kernel):
        self.kernel = kernel

    @classmethod
    def from_name(cls, name):
        return cls(cls._BY_NAME[name])

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Activation.from_name("gelu")(jnp.ones((8, 128), jnp.float32)).sum())
