"""The kernel is found by scanning globals().items() for its name: a generator function.  JAX: error (generator)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def stream(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]
    yield

kernel = next(v for k, v in list(globals().items()) if k == "stream")
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
