"""next(iter(TABLE.values())) picks the first kernel, an async def.  JAX: TypeError."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

async def first(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]

def second(x_ref, o_ref):
    o_ref[...] = x_ref[...]

TABLE = {"first": first, "second": second}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(next(iter(TABLE.values())), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
