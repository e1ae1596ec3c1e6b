"""A launcher's scratch parameter defaults to {what}; the kernel takes one scratch ref.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(kernel, x, scratch=(pltpu.VMEM((8, 128), jnp.float32),) * 2):
    return pl.pallas_call(kernel, out_shape=S, scratch_shapes=scratch, interpret=True)(x)  # expect: PAL004

def copy(x_ref, o_ref, acc_ref):
    acc_ref[...] = x_ref[...]
    o_ref[...] = acc_ref[...]

print(launch(copy, x).sum())
