"""functools.partial(kernel, bias=B) with B a jnp array bound as a constant.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

B = jnp.ones((8, 128), jnp.float32)


def kernel(x_ref, o_ref, *, bias):
    o_ref[...] = x_ref[...] + bias  # expect: PAL003


print(pl.pallas_call(functools.partial(kernel, bias=B), out_shape=S, interpret=True)(x).sum())
