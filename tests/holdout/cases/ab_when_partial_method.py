"""pl.when over functools.partial of a bound method that returns.  JAX: TypeError (cond branches)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Init:
    def zero(self, o_ref):
        o_ref[...] = jnp.zeros_like(o_ref)
        return o_ref[...]  # expect: PAL007

def kernel(x_ref, o_ref):
    pl.when(pl.program_id(0) == 0)(functools.partial(Init().zero, o_ref))
    o_ref[...] += x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())
