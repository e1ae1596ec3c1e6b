"""A jitted wrapper with a static fused flag, called with its False default.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def body(x_ref, o_ref, *, fused=False):
    if fused:
        return x_ref[...] * 2
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@functools.partial(jax.jit, static_argnames="fused")
def f(x, fused=False):
    return pl.pallas_call(functools.partial(body, fused=fused), out_shape=S, interpret=True)(x)

print(f(x).sum())
