"""Decorators applied with functools.reduce; they hand the kernel back.  JAX: ValueError "should return None"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def traced(fn):
    fn.traced = True
    return fn

def named(fn):
    fn.label = fn.__name__
    return fn

def double(x_ref, o_ref):
    return x_ref[...] * 2  # expect: PAL001

kernel = functools.reduce(lambda f, deco: deco(f), [traced, named], double)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(kernel, x).sum())
