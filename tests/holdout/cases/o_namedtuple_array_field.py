"""A module-level NamedTuple of parameters holds an array the kernel reads.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Params(typing.NamedTuple):
    weight: jax.Array
    scale: float

P = Params(jnp.full((8, 128), 2.0, jnp.float32), 0.5)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * P.weight * P.scale  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
