"""a kernel reads a jax array from a frozen dataclass instance  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@dataclasses.dataclass(frozen=True)
class Weights:
    scale: float
    table: jax.Array


W = Weights(2.0, jnp.ones((8, 128), jnp.float32))


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * W.scale


print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
