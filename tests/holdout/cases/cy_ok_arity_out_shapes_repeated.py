"""out_shape=[S] * N_OUT with N_OUT = 1: three refs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def add(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] + b_ref[...]


N_OUT = 1
outs = pl.pallas_call(add, out_shape=[S] * N_OUT, interpret=True)(x, x)
print(outs[0].sum())
