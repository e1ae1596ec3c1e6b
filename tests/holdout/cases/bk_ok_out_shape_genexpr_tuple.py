"""out_shape=tuple(S for _ in inputs) over two inputs; the kernel takes two outputs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

inputs = (x, x + 1)

def kernel(a_ref, b_ref, o_ref, p_ref):
    o_ref[...] = a_ref[...]
    p_ref[...] = b_ref[...]

out_shape = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype) for a in inputs)
print(pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(*inputs)[0].sum())
