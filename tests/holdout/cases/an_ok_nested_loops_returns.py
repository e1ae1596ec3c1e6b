"""Returns inside nested fori_loop bodies and a pl.loop body with a carry.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    def outer(i, acc):
        def inner(j, a):
            return a + x_ref[0, 0]
        return jax.lax.fori_loop(0, 2, inner, acc)
    total = jax.lax.fori_loop(0, 2, outer, 0.0)
    o_ref[...] = x_ref[...] + total

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
