"""max(KERNELS, key=...) by a priority set as a function attribute; the winner returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def tuned(x_ref, o_ref):
    return x_ref[...] * 1.0  # expect: PAL001

plain.priority = 1
tuned.priority = 5
best = max((plain, tuned), key=lambda k: k.priority)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(best, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
