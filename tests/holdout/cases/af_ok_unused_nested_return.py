"""A nested function that returns is never called by the kernel.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    def unused():
        return 1
    o_ref[...] = x_ref[...]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
