"""An op class whose _kernel method is launched through functools.partial with self.fused=True.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Double:
    def __init__(self, fused: bool):
        self.fused = fused

    def _kernel(self, x_ref, o_ref):
        if self.fused:
            return x_ref[...] * 2  # expect: PAL001
        o_ref[...] = x_ref[...] * 2

    def __call__(self, x):
        return pl.pallas_call(self._kernel, out_shape=S, interpret=True)(x)


print(Double(fused=True)(x).sum())
