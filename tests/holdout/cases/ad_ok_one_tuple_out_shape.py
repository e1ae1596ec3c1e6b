"""out_shape (S,) and empty scratch_shapes: one output parameter.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
pl.pallas_call(kernel, out_shape=(S,), scratch_shapes=(), interpret=True)(x)
