"""an out_shape tuple built by a helper  JAX: TypeError (arity)."""
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


def outs(n):
    return tuple(S for _ in range(n))


r = pl.pallas_call(kernel, out_shape=outs(2), interpret=True)(x)  # expect: PAL004
print(r[0].sum())
