"""An abstract base launches self.kernel, an abstract property a subclass implements; it returns.  JAX: ValueError "should return None"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _softsign(x_ref, o_ref):
    return x_ref[...] / (1 + jnp.abs(x_ref[...]))  # expect: PAL001

class Elementwise(abc.ABC):
    @property
    @abc.abstractmethod
    def kernel(self):
        ...

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

class Softsign(Elementwise):
    @property
    def kernel(self):
        return _softsign

print(Softsign()(jnp.ones((8, 128), jnp.float32)).sum())
