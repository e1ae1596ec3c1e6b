"""return fori_loop(0, 2, body, init_val=INIT) with INIT = None.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

INIT = None


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    def step(i, carry):
        return carry

    return jax.lax.fori_loop(0, 2, step, init_val=INIT)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
