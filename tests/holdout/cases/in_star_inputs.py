"""inputs unpacked from a tuple  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(a_ref, o_ref):
    o_ref[...] = a_ref[...]


ARGS = (x, x)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(*ARGS).sum())  # expect: PAL004
