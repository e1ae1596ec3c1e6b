"""A launcher pops its kernel out of **opts: copy.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(x, **opts):
    kernel = opts.pop("kernel")
    return pl.pallas_call(kernel, out_shape=S, interpret=True, **opts)(x)

print(launch(x, kernel=copy).sum())
