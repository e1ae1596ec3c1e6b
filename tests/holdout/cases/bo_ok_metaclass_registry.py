"""A metaclass registers each class by its NAME attribute: copy.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump_kernel(x_ref, o_ref):
    return x_ref[...] + 1

REGISTRY = {}

class Registered(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        if "NAME" in namespace:
            REGISTRY[namespace["NAME"]] = cls

class Copy(metaclass=Registered):
    NAME = "copy"
    kernel = staticmethod(copy_kernel)

class Bump(metaclass=Registered):
    NAME = "bump"
    kernel = staticmethod(bump_kernel)

kernel = REGISTRY["copy"].kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
