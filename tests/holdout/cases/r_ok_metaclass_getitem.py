"""A metaclass __getitem__ looks up the valid kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _relu(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0)

def _abs(x_ref, o_ref):
    return jnp.abs(x_ref[...])

class Registry(type):
    def __getitem__(cls, name):
        return cls._kernels[name]

class Ops(metaclass=Registry):
    _kernels = {"relu": _relu, "abs": _abs}

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(Ops["relu"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
