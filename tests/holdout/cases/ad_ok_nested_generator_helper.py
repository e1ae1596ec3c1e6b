"""A generator helper nested in the kernel does not make the kernel a generator.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    def rows():
        for i in range(2):
            yield i
    o_ref[...] = x_ref[...] * sum(rows())
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
