"""The pl.when body is functools.partial of a helper that returns the block (reported at that return, as for a def body).  JAX: TypeError (cond branch outputs)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def store(o_ref, v):
    o_ref[...] = v
    return v  # expect: PAL007

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    pl.when(pl.program_id(0) == 0)(functools.partial(store, o_ref, x_ref[...] * 2))

print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
