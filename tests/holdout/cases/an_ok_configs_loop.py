"""One kernel launched over a loop of configurations, each a functools.partial with a block size.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, *, scale):
    o_ref[...] = x_ref[...] * scale

for scale in (1.0, 2.0, 3.0):
    body = functools.partial(kernel, scale=scale)
    print(pl.pallas_call(body, out_shape=S, interpret=True)(x).sum())
