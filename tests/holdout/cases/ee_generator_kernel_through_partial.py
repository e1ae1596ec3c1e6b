"""The kernel is functools.partial of a generator function.  JAX: error (generator kernel)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def body(x_ref, o_ref, scale):  # expect: PAL005
    o_ref[...] = x_ref[...] * scale
    yield


kernel = functools.partial(body, scale=2.0)

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), interpret=True)(x).sum())
