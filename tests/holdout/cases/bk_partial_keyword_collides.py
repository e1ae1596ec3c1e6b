"""partial binds `scale` by keyword, but `scale` sits between the refs: the output ref lands on it twice.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def body(x_ref, scale, o_ref):
    o_ref[...] = x_ref[...] * scale

kernel = functools.partial(body, scale=2.0)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())  # expect: PAL004
