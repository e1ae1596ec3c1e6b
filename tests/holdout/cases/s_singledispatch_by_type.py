"""functools.singledispatch picks the kernel by the type of a config value.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bad(x_ref, o_ref):
    return x_ref[...] * 3  # expect: PAL001

@functools.singledispatch
def kernel_for(scale):
    return good

@kernel_for.register(float)
def _(scale):
    return bad

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel_for(3.0), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
