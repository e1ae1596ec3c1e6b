"""A kernel reads an array from a module dict made by a comprehension.  JAX: the kernel captures a constant (a jax array)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

PARAMS = {name: jnp.full((8, 128), 2.0, jnp.float32) for name in ("scale", "shift")}

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * PARAMS["scale"]  # expect: PAL003
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
