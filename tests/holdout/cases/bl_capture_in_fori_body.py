"""A fori_loop body inside the kernel reads a module-level array.  JAX: ValueError "captures constants"."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

STEP = jnp.full((8, 128), 0.5)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    def body(i, carry):
        o_ref[...] += STEP  # expect: PAL003
        return carry

    jax.lax.fori_loop(0, 2, body, 0)
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
