"""partials made in a comprehension; the second is launched  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def body(x_ref, o_ref, *, emit):
    o_ref[...] = x_ref[...]
    if emit:
        return o_ref[...]  # expect: PAL001


KERNELS = [functools.partial(body, emit=e) for e in (False, True)]
print(pl.pallas_call(KERNELS[1], out_shape=S, interpret=True)(x).sum())
