"""pl.when inside a pl.loop body returns the accumulator.  JAX: TypeError cond branch outputs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    o_ref[...] = jnp.zeros_like(o_ref)

    @pl.loop(0, 4)
    def _(i):
        @pl.when(i == pl.program_id(0))
        def _():
            o_ref[...] += x_ref[...]
            return o_ref[...]  # expect: PAL007

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())
