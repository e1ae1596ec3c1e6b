"""The kernel writes through pl.ds slices.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    o_ref[pl.ds(0, 4), :] = x_ref[pl.ds(0, 4), :]
    o_ref[pl.ds(4, 4), :] = x_ref[pl.ds(4, 4), :] * 2
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
