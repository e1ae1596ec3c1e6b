"""The kernel uses a module-level jax array only under `if DEBUG:` with DEBUG False.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
W = jnp.full((8, 128), 2.0, jnp.float32)
DEBUG = False
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    if DEBUG:
        o_ref[...] += W
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
