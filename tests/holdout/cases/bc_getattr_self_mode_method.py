"""A property picks a method by getattr(self, f'_{mode}_kernel').  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

class Op:
    def __init__(self, mode):
        self.mode = mode

    def _plain_kernel(self, x_ref, o_ref):
        copy(x_ref, o_ref)

    def _fused_kernel(self, x_ref, o_ref):
        return bump(x_ref, o_ref)  # expect: PAL001

    @property
    def kernel(self):
        return getattr(self, f"_{self.mode}_kernel")

kernel = Op("fused").kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
