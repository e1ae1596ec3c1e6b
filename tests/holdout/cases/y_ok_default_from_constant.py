"""A selector's default comes from a False constant.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]
def bump(x_ref, o_ref):
    return x_ref[...] + 1
DEBUG = False
def kernel_for(debug=DEBUG):
    return bump if debug else copy
pl.pallas_call(kernel_for(), out_shape=S, interpret=True)(x)
