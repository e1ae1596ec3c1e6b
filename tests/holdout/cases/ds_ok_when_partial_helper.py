"""pl.when(traced)(functools.partial(finish, o_ref)) where finish returns None.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def finish(o_ref):
    o_ref[...] = o_ref[...] + 1
    return None


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    pl.when(x_ref[0, 0] > 0)(functools.partial(finish, o_ref))

print(pl.pallas_call(kernel, out_shape=S, grid=(1,), interpret=True)(x).sum())
