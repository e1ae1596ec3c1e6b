"""Scratch shapes made by a comprehension over range(2), two scratch refs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, acc_ref, tmp_ref):
    acc_ref[...] = x_ref[...]
    tmp_ref[...] = acc_ref[...]
    o_ref[...] = tmp_ref[...]

scratch = [pltpu.VMEM((8, 128), jnp.float32) for _ in range(2)]
print(pl.pallas_call(kernel, out_shape=S, scratch_shapes=scratch, interpret=True)(x).sum())
