"""The same op passes the bias as an input.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def add_bias(x):
    bias = jnp.broadcast_to(jnp.linspace(0.0, 1.0, 128, dtype=jnp.float32)[None, :], x.shape)

    def bias_kernel(x_ref, b_ref, o_ref):
        o_ref[...] = x_ref[...] + b_ref[...]

    return pl.pallas_call(bias_kernel, out_shape=S, interpret=True)(x, bias)


print(add_bias(x).sum())
