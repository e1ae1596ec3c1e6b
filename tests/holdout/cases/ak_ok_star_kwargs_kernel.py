"""A kernel of *refs and **options, options bound by functools.partial.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def body(*refs, scale=1.0, **options):
    x_ref, o_ref = refs
    o_ref[...] = x_ref[...] * scale

kernel = functools.partial(body, scale=2.0, name="scaled")

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
