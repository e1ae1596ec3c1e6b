"""A pl.when body defined as a nested def reading a closure, returning the block.  JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    block = x_ref[...]

    def first():
        o_ref[...] = block
        return block  # expect: PAL007

    pl.when(pl.program_id(0) == 0)(first)
    pl.when(pl.program_id(0) != 0)(lambda: o_ref.__setitem__(Ellipsis, block))
print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
