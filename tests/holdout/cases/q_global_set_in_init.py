"""An init function assigns a global array; the kernel closes over it.  JAX: ValueError "captures constants"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

W = None

def init():
    global W
    W = jnp.full((8, 128), 0.5, jnp.float32)

init()

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * W  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
