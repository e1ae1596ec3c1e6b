"""out_shape=(*extra, S) with two extra shapes; the kernel takes two outputs.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

extra = [S, S]

def kernel(x_ref, o_ref, p_ref):
    o_ref[...] = x_ref[...]
    p_ref[...] = x_ref[...]

print(pl.pallas_call(kernel, out_shape=(*extra, S), interpret=True)(x)[0].sum())  # expect: PAL004
