"""The kernel closes over an int read from a jax array's shape.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
N = x.shape[0]
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * N
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
