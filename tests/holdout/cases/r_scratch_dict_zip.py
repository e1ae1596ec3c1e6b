"""scratch_shapes is a dict built with dict(zip(...)); its key is not a parameter of the kernel.  JAX: TypeError unexpected keyword."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref, *, accum):
    accum[...] = x_ref[...]
    o_ref[...] = accum[...]

names = ["acc"]
x = jnp.ones((8, 128), jnp.float32)
scratch = dict(zip(names, [pltpu.VMEM((8, 128), jnp.float32)]))
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=scratch, interpret=True)(x).sum())  # expect: PAL004
