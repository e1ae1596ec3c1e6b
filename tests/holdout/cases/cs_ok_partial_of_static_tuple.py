"""functools.partial(kernel, dims=x.shape) binds a tuple of ints.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref, *, dims):
    o_ref[...] = x_ref[...] * dims[0]


print(pl.pallas_call(functools.partial(kernel, dims=x.shape), out_shape=S, interpret=True)(x).sum())
