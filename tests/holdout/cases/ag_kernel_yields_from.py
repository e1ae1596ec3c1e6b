"""The kernel delegates with yield from: it is a generator.  JAX: TypeError (object of type NoneType has no len())."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def steps(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    yield

def kernel(x_ref, o_ref):  # expect: PAL005
    yield from steps(x_ref, o_ref)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
