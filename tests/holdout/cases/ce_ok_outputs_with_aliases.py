"""out_shape=(S, S) with input_output_aliases={0: 1}; the kernel takes one input and two outputs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...] * 2


outs = pl.pallas_call(kernel, out_shape=(S, S), input_output_aliases={0: 1}, interpret=True)(x)
print(outs[0].sum())
