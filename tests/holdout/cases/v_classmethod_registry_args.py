"""A classmethod decorator with an argument registers a generator kernel.  JAX: error (generator)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Registry:
    table = {}

    @classmethod
    def register(cls, name):
        def deco(fn):
            cls.table[name] = fn
            return fn
        return deco

@Registry.register("stream")
def stream(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]
    yield

kernel = Registry.table["stream"]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
