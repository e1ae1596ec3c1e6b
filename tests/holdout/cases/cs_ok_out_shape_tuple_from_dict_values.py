"""out_shape=tuple(SHAPES.values()) gives 2 outputs for a kernel with 2.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

SHAPES = {"a": S, "b": S}


def kernel(x_ref, o_ref, p_ref):
    o_ref[...] = x_ref[...]
    p_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=tuple(SHAPES.values()), interpret=True)(x)[0].sum())
