"""in_specs from a list comprehension, two inputs, a kernel of two inputs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] + b_ref[...]

spec = pl.BlockSpec((8, 128), lambda i: (0, 0))
call = pl.pallas_call(kernel, out_shape=S, grid=(1,), in_specs=[spec for _ in range(2)], out_specs=spec, interpret=True)
print(call(x, x).sum())
