"""A jitted partial of pallas_call with two outputs for a kernel of one.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

run = jax.jit(functools.partial(pl.pallas_call, out_shape=(S, S), interpret=True)(kernel))  # expect: PAL004
print(run(x))
