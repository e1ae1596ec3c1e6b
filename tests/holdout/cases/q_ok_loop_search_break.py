"""A for loop finds the valid kernel by name and breaks before the returning one.  JAX: runs."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def slow(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fast(x_ref, o_ref):
    return x_ref[...]

CANDIDATES = [slow, fast]
chosen = None
for cand in CANDIDATES:
    if cand.__name__ == "slow":
        chosen = cand
        break
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(chosen, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
