"""functools.partial(body, **CFG) with CFG fused False.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def body(x_ref, o_ref, *, fused=False):
    if fused:
        return x_ref[...] * 2
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

CFG = {"fused": False}
print(pl.pallas_call(functools.partial(body, **CFG), out_shape=S, interpret=True)(x).sum())
