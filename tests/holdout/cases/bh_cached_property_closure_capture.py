"""A cached_property builds a kernel closing over the op's array scale.  JAX: the kernel captures a constant (a jax array)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Op:
    def __init__(self, scale):
        self.scale = scale

    @functools.cached_property
    def kernel(self):
        scale = self.scale

        def body(x_ref, o_ref):
            o_ref[...] = x_ref[...] * scale  # expect: PAL003

        return body

    def __call__(self, v):
        return pl.pallas_call(self.kernel, out_shape=S, interpret=True)(v)

print(Op(jnp.full((8, 128), 2.0, jnp.float32))(x).sum())
