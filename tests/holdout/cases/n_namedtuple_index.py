"""A typing.NamedTuple config indexed by position.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bad(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

class Spec(typing.NamedTuple):
    kernel: object
    fallback: object

spec = Spec(bad, good)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(spec[0], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
