"""Options splatted into functools.partial bind a parameter that a ref also fills.  JAX: TypeError multiple values."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(block, x_ref, o_ref):
    o_ref[...] = x_ref[...] * block

opts = {"block": 2}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(functools.partial(kernel, **opts), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())  # expect: PAL004
