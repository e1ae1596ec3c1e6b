"""A method kernel reads self.config.bias, a float.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@dataclasses.dataclass(frozen=True)
class Config:
    bias: typing.Any

class Op:
    def __init__(self, config):
        self.config = config

    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] + self.config.bias

    def __call__(self, v):
        return pl.pallas_call(self.kernel, out_shape=S, interpret=True)(v)

print(Op(Config(1.0))(x).sum())
