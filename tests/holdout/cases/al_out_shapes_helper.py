"""out_shape comes from a helper returning two structs; the kernel has one output.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def out_shapes(x):
    s = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return (s, s)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

print(pl.pallas_call(kernel, out_shape=out_shapes(x), interpret=True)(x))  # expect: PAL004
