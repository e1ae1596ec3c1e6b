"""The kernel returns a fori_loop whose carry is None: None.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    def body(i, carry):
        o_ref[...] = x_ref[...] + i
    return jax.lax.fori_loop(0, 2, body, None)
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
