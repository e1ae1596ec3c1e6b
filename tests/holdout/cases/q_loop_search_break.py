"""A for loop finds the kernel by name and breaks.  JAX: ValueError "should return None"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def slow(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fast(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

CANDIDATES = [slow, fast]
chosen = None
for cand in CANDIDATES:
    if cand.__name__ == "fast":
        chosen = cand
        break
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(chosen, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
