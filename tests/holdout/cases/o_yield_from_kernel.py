"""A kernel with a 'yield from' (for a debugging generator) is a generator.  JAX: TypeError not a valid JAX type."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _trace_steps():
    yield "start"

def kernel(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...]
    yield from _trace_steps()

KERNELS = {"copy": kernel}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(KERNELS.get("copy"), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
