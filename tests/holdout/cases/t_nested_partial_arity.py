"""Two nested functools.partial bind two leading parameters; the kernel then has one ref too many.  JAX: TypeError missing argument."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(scale, bias, x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] * scale + bias

k = functools.partial(functools.partial(kernel, 2.0), 1.0)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())  # expect: PAL004
