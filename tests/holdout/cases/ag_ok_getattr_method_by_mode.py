"""getattr(self, f"_{mode}_kernel") with mode "copy".  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Ops:
    def _copy_kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...]

    def _bump_kernel(self, x_ref, o_ref):
        return x_ref[...] + 1

    def get(self, mode):
        return getattr(self, f"_{mode}_kernel")

print(pl.pallas_call(Ops().get("copy"), out_shape=S, interpret=True)(x).sum())
