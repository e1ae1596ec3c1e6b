"""The kernel is defined in the taken branch of a Python version check (JAX needs Python >= 3.10).  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
if sys.version_info >= (3, 8):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...]
else:
    def kernel(x_ref, o_ref):
        return x_ref[...]
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
