"""A callable instance is the kernel; its __call__ wants two inputs but the launch passes one.  JAX: TypeError missing argument."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class AddBias:
    def __init__(self, bias):
        self.bias = bias

    def __call__(self, x_ref, b_ref, o_ref):
        o_ref[...] = x_ref[...] + b_ref[...] * self.bias

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(AddBias(2.0), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())  # expect: PAL004
