"""A fori_loop's value is written into the output.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    def step(i, acc):
        return acc + x_ref[...]
    o_ref[...] = jax.lax.fori_loop(0, 2, step, jnp.zeros_like(x_ref[...]))
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
