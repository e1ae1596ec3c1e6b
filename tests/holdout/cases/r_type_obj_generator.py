"""type(op).kernel is a staticmethod generator.  JAX: TypeError not a valid JAX type."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Op:
    @staticmethod
    def kernel(x_ref, o_ref):  # expect: PAL005
        o_ref[...] = x_ref[...]
        yield

op = Op()
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(type(op).kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
