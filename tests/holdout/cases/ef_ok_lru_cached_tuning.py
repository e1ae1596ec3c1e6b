"""An lru_cache'd tune(n) returns a Config with kernel copy for n = 8.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1


KS = {"copy": copy, "bump": bump}


@dataclasses.dataclass(frozen=True)
class Config:
    kernel: typing.Any
    block: int


@functools.lru_cache(maxsize=None)
def tune(n):
    if n <= 8:
        return Config(copy, 8)
    return Config(bump, 128)


kernel = tune(x.shape[0]).kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
