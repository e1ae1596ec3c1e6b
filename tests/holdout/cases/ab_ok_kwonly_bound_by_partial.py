"""The required keyword-only parameter is bound by functools.partial.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref, *, block):
    o_ref[...] = x_ref[...] * block

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(functools.partial(kernel, block=2), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
