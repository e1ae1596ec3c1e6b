"""args = tuple(x for _ in range(2)) to a 3-ref kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def add(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] + b_ref[...]


args = tuple(x for _ in range(2))
print(pl.pallas_call(add, out_shape=S, interpret=True)(*args).sum())
