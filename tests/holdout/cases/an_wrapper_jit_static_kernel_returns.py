"""A jitted wrapper takes the kernel as a static argument; the kernel passed returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

@functools.partial(jax.jit, static_argnums=0)
def launch(kernel, x):
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(x)

print(launch(bump, x).sum())
