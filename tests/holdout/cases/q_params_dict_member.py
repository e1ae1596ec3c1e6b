"""The kernel reads self.params["w"], a dict of arrays built in __init__.  JAX: ValueError "captures constants"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Layer:
    def __init__(self):
        self.params = {"w": jnp.full((8, 128), 2.0, jnp.float32), "b": 0.0}

    def __call__(self, x):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * self.params["w"]  # expect: PAL003

        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Layer()(jnp.ones((8, 128), jnp.float32)).sum())
