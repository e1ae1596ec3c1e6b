"""An instance whose __call__ is async def is the kernel.  JAX: TypeError (coroutine)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Copy:
    async def __call__(self, x_ref, o_ref):  # expect: PAL005
        o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(Copy(), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
