"""functools.partial binds an array to a kernel parameter.  JAX: ValueError "captures constants"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref, *, bias):
    o_ref[...] = x_ref[...] + bias  # expect: PAL003
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(functools.partial(kernel, bias=jnp.ones((8, 128), jnp.float32)), x).sum())
