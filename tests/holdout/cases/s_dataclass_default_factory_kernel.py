"""A dataclass field's default_factory gives the kernel.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def default_kernel(x_ref, o_ref):
    return x_ref[...] + 0.5  # expect: PAL001

@dataclasses.dataclass
class Config:
    kernel: typing.Callable = dataclasses.field(default_factory=lambda: default_kernel)

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(Config().kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
