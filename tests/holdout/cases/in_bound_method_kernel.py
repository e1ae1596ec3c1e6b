"""a bound method as the kernel (self is not a ref)  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Op:
    def kernel(self, x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...]


print(pl.pallas_call(Op().kernel, out_shape=S, interpret=True)(x).sum())  # expect: PAL004
