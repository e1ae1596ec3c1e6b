"""Enum members whose values are partials of kernels; the launch reads `.value`.  JAX: ValueError "should return None"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def scale_kernel(x_ref, o_ref, factor):
    return x_ref[...] * factor  # expect: PAL001

class Op(enum.Enum):
    DOUBLE = functools.partial(scale_kernel, factor=2.0)
    TRIPLE = functools.partial(scale_kernel, factor=3.0)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(Op.DOUBLE.value, x).sum())
