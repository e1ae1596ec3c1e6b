"""dir() lists names sorted; the first with a prefix is launched. (the valid twin).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

class Ops:
    k_beta = staticmethod(bump)
    k_alpha = staticmethod(copy)

kernel = getattr(Ops, [n for n in dir(Ops) if n.startswith("k_")][0])
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
