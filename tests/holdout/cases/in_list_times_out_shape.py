"""an out_shape list made by repetition  JAX: TypeError (arity)."""
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


outs = pl.pallas_call(kernel, out_shape=[S] * 2, interpret=True)(x)  # expect: PAL004
print(outs[0].sum())
