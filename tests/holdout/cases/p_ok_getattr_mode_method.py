"""getattr(self, f"_{self.mode}_kernel") with a mode that picks the valid kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Reduce:
    def __init__(self, mode):
        self.mode = mode

    @staticmethod
    def _sum_kernel(x_ref, o_ref):
        o_ref[...] = jnp.broadcast_to(jnp.sum(x_ref[...], axis=0, keepdims=True), o_ref.shape)

    @staticmethod
    def _max_kernel(x_ref, o_ref):
        return jnp.max(x_ref[...], axis=0, keepdims=True)

    def __call__(self, x):
        kernel = getattr(self, f"_{self.mode}_kernel")
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Reduce("sum")(jnp.ones((8, 128), jnp.float32)).sum())
