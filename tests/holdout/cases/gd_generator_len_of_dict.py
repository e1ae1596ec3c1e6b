"""tuple(S for _ in range(len(D)))  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

D = {'a': 1, 'b': 2, 'c': 3}
OUT = tuple(S for _ in range(len(D)))


def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=OUT, interpret=True)(x))  # expect: PAL004
