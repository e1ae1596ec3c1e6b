"""out_shape is a list of two made by a comprehension; the kernel takes three refs.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...]
shapes = [S for _ in range(2)]
pl.pallas_call(kernel, out_shape=shapes, interpret=True)(x)
