"""out_shape=[S for _ in range(2)]: 3 refs for a 2-parameter kernel.  JAX: TypeError (kernel arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=[S for _ in range(2)], interpret=True)(x))  # expect: PAL004
