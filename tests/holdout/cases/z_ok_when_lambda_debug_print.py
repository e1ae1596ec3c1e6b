"""The pl.when body is a lambda returning jax.debug.print's None.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    pl.when(pl.program_id(0) == 0)(lambda: jax.debug.print("first"))
    o_ref[...] = x_ref[...]
pl.pallas_call(kernel, out_shape=S, grid=(1,), interpret=True)(x)
