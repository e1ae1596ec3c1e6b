"""A table filled with dict.update(name=kernel).  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def relu_kernel(x_ref, o_ref):
    return jnp.maximum(x_ref[...], 0.0)  # expect: PAL001

TABLE = {}
TABLE.update(relu=relu_kernel)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(TABLE["relu"], x).sum())
