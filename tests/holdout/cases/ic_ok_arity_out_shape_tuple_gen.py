"""out_shape is a tuple made by a generator: two outputs, two output parameters  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o1_ref, o2_ref):
    o1_ref[...] = x_ref[...]
    o2_ref[...] = x_ref[...]


outs = pl.pallas_call(kernel, out_shape=tuple(S for _ in range(2)), interpret=True)(x)
