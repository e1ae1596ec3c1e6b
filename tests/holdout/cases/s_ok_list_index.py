"""KERNELS[NAMES.index("copy")] picks the valid kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def tanh_k(x_ref, o_ref):
    return jnp.tanh(x_ref[...])

NAMES = ["copy", "tanh"]
KERNELS = [good, tanh_k]
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(KERNELS[NAMES.index("copy")], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
