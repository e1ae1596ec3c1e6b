"""A dataclass's __post_init__ derives the kernel from its mode. (the valid twin).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

@dataclasses.dataclass
class Config:
    mode: str

    def __post_init__(self):
        self.kernel = {"plain": copy, "fused": bump}[self.mode]

kernel = Config("plain").kernel
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
