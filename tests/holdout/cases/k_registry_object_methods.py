"""A Registry object: add(name) returns a decorator storing into self._items; get() reads it.  JAX: ValueError "should return None"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Registry:
    def __init__(self):
        self._items = {}

    def add(self, name):
        def deco(fn):
            self._items[name] = fn
            return fn
        return deco

    def get(self, name):
        return self._items[name]

KERNELS = Registry()

@KERNELS.add("exp")
def exp_kernel(x_ref, o_ref):
    return jnp.exp(x_ref[...])  # expect: PAL001
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(KERNELS.get("exp"), x).sum())
