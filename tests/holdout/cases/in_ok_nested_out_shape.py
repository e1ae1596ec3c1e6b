"""a nested tuple out_shape gives the kernel one argument per top-level element  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, a_ref, bc_refs):
    a_ref[...] = x_ref[...]
    b_ref, c_ref = bc_refs
    b_ref[...] = x_ref[...]
    c_ref[...] = x_ref[...]


r = pl.pallas_call(kernel, out_shape=(S, (S, S)), interpret=True)(x)
print(r[0].sum())
