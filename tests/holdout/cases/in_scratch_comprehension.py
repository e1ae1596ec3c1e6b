"""scratch shapes from a comprehension  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, s_ref):
    s_ref[...] = x_ref[...]
    o_ref[...] = s_ref[...]


SCRATCH = [pltpu.VMEM((8, 128), jnp.float32) for _ in range(2)]
print(pl.pallas_call(kernel, out_shape=S, scratch_shapes=SCRATCH, interpret=True)(x).sum())  # expect: PAL004
