"""pl.when imported under another name; the when body returns.  JAX: TypeError cond branch outputs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from jax.experimental.pallas import when as only_if, program_id as pid

def kernel(x_ref, o_ref):
    @only_if(pid(0) == 0)
    def _():
        o_ref[...] = x_ref[...]
        return o_ref[...]  # expect: PAL007

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())
