"""A pallas_call kernel nested in an op reads a bias array the op made with jnp.linspace.  JAX: error (captures constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def add_bias(x):
    bias = jnp.linspace(0.0, 1.0, 128, dtype=jnp.float32)[None, :]

    def bias_kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + bias  # expect: PAL003

    return pl.pallas_call(bias_kernel, out_shape=S, interpret=True)(x)


print(add_bias(x).sum())
