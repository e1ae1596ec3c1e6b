"""A lambda kernel whose parameter defaults to a module jax array.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

W = jnp.full((8, 128), 2.0, jnp.float32)
kernel = lambda x_ref, o_ref, w=W: o_ref.__setitem__(Ellipsis, x_ref[...] * w)  # expect: PAL003
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
