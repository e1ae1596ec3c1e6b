"""A method returns a Python list of ints; the kernel closes over it.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Grid:
    def offsets(self):
        return [i * 8 for i in range(4)]

OFFS = Grid().offsets()

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + OFFS[1]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
