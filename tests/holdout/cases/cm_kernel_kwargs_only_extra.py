"""def kernel(x_ref, **kw) launched with 2 refs: o_ref has no place.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, **kw):
    pass


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())  # expect: PAL004
