"""a named config's block size is bound by a partial; large blocks return  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@dataclasses.dataclass(frozen=True)
class Config:
    block: int


CONFIGS = {"small": Config(64), "large": Config(256)}


def body(x_ref, o_ref, *, block):
    if block > 128:
        return x_ref[...] * 2  # expect: PAL001
    o_ref[...] = x_ref[...]


def run(v, name):
    kernel = functools.partial(body, block=CONFIGS[name].block)
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(v)


print(run(x, "large").sum())
