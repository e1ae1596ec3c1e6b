"""The same vmapped launch with a kernel that returns.  JAX: ValueError should return None."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


xs = jnp.ones((2, 8, 128), jnp.float32)
print(jax.vmap(lambda v: pl.pallas_call(kernel, out_shape=S, interpret=True)(v))(xs).sum())
