"""def kernel(*ins, o_ref): o_ref is keyword-only, JAX passes refs positionally.  JAX: TypeError (missing o_ref)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(*ins, o_ref):
    o_ref[...] = ins[0][...]


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())  # expect: PAL004
