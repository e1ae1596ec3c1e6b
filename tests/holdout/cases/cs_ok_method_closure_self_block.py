"""Op's kernel closes over self.block, an int.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


class Op:
    def __init__(self, block=8):
        self.block = block

    def __call__(self, v):
        block = self.block

        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * block

        return pl.pallas_call(kernel, out_shape=S, interpret=True)(v)


print(Op()(x).sum())
