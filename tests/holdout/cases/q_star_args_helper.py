"""A helper takes *args and launches args[0].  JAX: ValueError "should return None"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def launch(*args):
    kernel, x = args
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

def inc(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

print(launch(inc, jnp.ones((8, 128), jnp.float32)).sum())
