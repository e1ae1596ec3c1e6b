"""functools.partial binds a leading non-ref parameter  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kern(scale, x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] * scale


print(pl.pallas_call(functools.partial(kern, 2.0), out_shape=S, interpret=True)(x).sum())  # expect: PAL004
