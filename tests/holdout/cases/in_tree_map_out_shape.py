"""out_shape mapped over the inputs  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, a_ref, b_ref, c_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...]
    c_ref[...] = x_ref[...]


r = pl.pallas_call(kernel, out_shape=jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), (x, x)), interpret=True)(x)  # expect: PAL004
print(r[0].sum())
