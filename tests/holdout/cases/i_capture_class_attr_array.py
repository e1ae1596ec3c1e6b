"""The kernel reads an array stored as a class attribute.  JAX: ValueError "captures constants"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Consts:
    BIAS = jnp.ones((8, 128), jnp.float32)
    SCALE = 2.0

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * Consts.SCALE + Consts.BIAS  # expect: PAL003
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(kernel, x).sum())
