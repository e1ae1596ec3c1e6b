"""out_shape=make_outs(1) returns a list of 1 structs; the kernel takes x_ref, o_ref.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def make_outs(n):
    return [S for _ in range(n)]


def kernel(x_ref, o_ref, *rest):
    o_ref[...] = x_ref[...]


def kernel2(x_ref, o_ref):
    o_ref[...] = x_ref[...]


outs = pl.pallas_call(kernel2, out_shape=make_outs(1), interpret=True)(x)
print(outs[0].sum())
