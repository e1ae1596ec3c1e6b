"""outs() returns (S, S, S): 4 refs for a 3-parameter kernel.  JAX: TypeError (kernel arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def outs(n):
    return tuple(S for _ in range(n))


def kernel(x_ref, o_ref, p_ref):
    o_ref[...] = x_ref[...]
    p_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=outs(3), interpret=True)(x))  # expect: PAL004
