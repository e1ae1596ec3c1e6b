"""a return in `except KeyError:` after a body that raises KeyError.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    try:
        o_ref[...] = {"a": x_ref[...]}["b"]
    except KeyError:
        return o_ref[...]  # expect: PAL001

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
