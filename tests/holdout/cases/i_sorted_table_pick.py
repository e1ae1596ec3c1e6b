"""The first entry of a sorted table of (name, kernel) pairs is launched.  JAX: ValueError "should return None"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def add_kernel(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

TABLE = [("copy", copy_kernel), ("add", add_kernel)]
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
name, kernel = sorted(TABLE, key=lambda pair: pair[0])[0]
print(name, call(kernel, x).sum())
