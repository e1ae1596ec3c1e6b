"""The last kernel of a pending list, taken with list.pop().  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def first_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def last_kernel(x_ref, o_ref):
    return x_ref[...] * 4.0  # expect: PAL001

PENDING = [first_kernel, last_kernel]
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(PENDING.pop(), x).sum())
