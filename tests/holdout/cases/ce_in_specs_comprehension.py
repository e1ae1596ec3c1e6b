"""in_specs built by a comprehension over 3 inputs; the kernel takes two inputs.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] + b_ref[...]


inputs = [x] * 3
specs = [pl.BlockSpec((8, 128), lambda i: (0, 0)) for _ in inputs]
out_spec = pl.BlockSpec((8, 128), lambda i: (0, 0))
print(pl.pallas_call(kernel, out_shape=S, grid=(1,), in_specs=specs, out_specs=out_spec, interpret=True)(*inputs).sum())  # expect: PAL004
