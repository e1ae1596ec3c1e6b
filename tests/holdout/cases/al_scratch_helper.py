"""scratch_shapes from a helper making two buffers; the kernel takes one.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make_scratch(n):
    return [pltpu.VMEM((8, 128), jnp.float32) for _ in range(n)]

def kernel(x_ref, o_ref, buf):
    buf[...] = x_ref[...]
    o_ref[...] = buf[...]

print(pl.pallas_call(kernel, out_shape=S, scratch_shapes=make_scratch(2), interpret=True)(x).sum())  # expect: PAL004
