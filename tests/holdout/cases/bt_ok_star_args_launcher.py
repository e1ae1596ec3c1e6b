"""A launcher forwards *arrays; the call passes {n} arrays to a kernel of one input (matching).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(kernel, *arrays):
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(*arrays)

def add(a_ref, o_ref):
    o_ref[...] = a_ref[...] + 1

print(launch(add, x).sum())
