"""dict(zip(names, kernels, strict=True)) builds the table.  JAX: ValueError "should return None"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def neg_kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]

def abs_kernel(x_ref, o_ref):
    return jnp.abs(x_ref[...])  # expect: PAL001

TABLE = dict(zip(("neg", "abs"), (neg_kernel, abs_kernel), strict=True))
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(TABLE["abs"], x).sum())
