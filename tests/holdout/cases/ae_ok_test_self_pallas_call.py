"""The test class kernel writes its output.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class PallasTest:
    def setUp(self):
        self.pallas_call = functools.partial(pl.pallas_call, interpret=True)

    def test_add(self):
        @functools.partial(self.pallas_call, out_shape=S)
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + 1

        return kernel(x)

t = PallasTest()
t.setUp()
print(t.test_add().sum())
