"""A kernel taken out of a pending table with dict.pop.  JAX: ValueError "should return None"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def scale_kernel(x_ref, o_ref):
    return x_ref[...] * 3.0  # expect: PAL001

PENDING = {"scale": scale_kernel}
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
kernel = PENDING.pop("scale")
print(call(kernel, x).sum())
