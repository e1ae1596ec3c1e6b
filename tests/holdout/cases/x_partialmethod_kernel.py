"""A functools.partialmethod of a method that returns is the kernel.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Scaled:
    def _body(self, x_ref, o_ref, scale):
        return x_ref[...] * scale  # expect: PAL001

    fwd = functools.partialmethod(_body, scale=2.0)

kernel = Scaled().fwd
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
