"""The second kernel of a list, picked inside an enumerate loop.  JAX: ValueError "should return None"."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def first(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def second(x_ref, o_ref):
    return x_ref[...] * 2  # expect: PAL001

KERNELS = [first, second]
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
for i, kernel in enumerate(KERNELS):
    if i == 1:
        print(call(kernel, x).sum())
