"""A helper called by the kernel uses pl.when with a body that returns a value.  JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def maybe_bump(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = x_ref[...] + 1
        return o_ref[...]  # expect: PAL007

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    maybe_bump(x_ref, o_ref)
print(pl.pallas_call(kernel, out_shape=S, grid=(2,), interpret=True)(x).sum())
