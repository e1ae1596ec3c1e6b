"""The kernel is read back from an object's __dict__ via vars().  JAX: ValueError "should return None"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def softplus_kernel(x_ref, o_ref):
    return jnp.log1p(jnp.exp(x_ref[...]))  # expect: PAL001

class Plan:
    def __init__(self, kernel, tile):
        self.kernel = kernel
        self.tile = tile

plan = Plan(softplus_kernel, 128)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(vars(plan)["kernel"], x).sum())
