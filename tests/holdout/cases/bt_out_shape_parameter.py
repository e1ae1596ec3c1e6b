"""A launcher takes out_shape as a parameter; the call passes {what}.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(kernel, x, out_shape):
    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)  # expect: PAL004

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

print(launch(copy, x, (S, S)))
