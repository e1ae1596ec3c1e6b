"""pl.when(c)(self._init): a bound method that returns the ref's value.  JAX: TypeError cond branch outputs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Accumulate:
    def _init(self):
        self.o_ref[...] = jnp.zeros_like(self.o_ref)
        return self.o_ref[...]  # expect: PAL007

    def kernel(self, x_ref, o_ref):
        self.o_ref = o_ref
        pl.when(pl.program_id(0) == 0)(self._init)
        o_ref[...] += x_ref[...]

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x)

print(Accumulate()(jnp.ones((8, 128), jnp.float32)).sum())
