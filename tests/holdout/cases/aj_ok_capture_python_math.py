"""The kernel closes over math and numpy Python scalars and x.ndim.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

import math
SCALE = math.sqrt(2.0) * np.pi
RANK = x.ndim
ITEMS = len(x)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE + RANK + ITEMS

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
