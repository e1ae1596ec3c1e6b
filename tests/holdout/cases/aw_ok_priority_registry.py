"""A registry of (priority, kernel) pairs; the highest priority is launched. (the valid twin).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

REGISTRY = []

def register(priority):
    def add(fn):
        REGISTRY.append((priority, fn))
        return fn
    return add

register(2)(copy)
register(1)(bump)
kernel = sorted(REGISTRY, key=lambda entry: entry[0])[-1][1]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
