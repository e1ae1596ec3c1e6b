"""match on a (backend, size) tuple with a guard  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

def choose(backend, size):
    match (backend, size):
        case ("tpu", n) if n >= 512:
            return bump
        case _:
            return copy

kernel = choose("tpu", 1024)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
