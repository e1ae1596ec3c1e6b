"""out_shape from jax.eval_shape of a function returning a pair; the kernel takes one output.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def reference(a):
    return a * 2, a + 1

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

outs = jax.eval_shape(reference, x)
print(pl.pallas_call(kernel, out_shape=outs, interpret=True)(x)[0].sum())  # expect: PAL004
