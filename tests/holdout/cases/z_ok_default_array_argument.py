"""A launcher passes a module-level array as a default argument input.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
W = jnp.full((8, 128), 2.0, jnp.float32)
def kernel(x_ref, w_ref, o_ref):
    o_ref[...] = x_ref[...] * w_ref[...]
def run(x, w=W):
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(x, w)
run(x)
