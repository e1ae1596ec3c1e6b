"""The kernel takes its scratch buffers as *scratch.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref, *scratch):
    scratch[0][...] = x_ref[...]
    o_ref[...] = scratch[0][...]
pl.pallas_call(kernel, out_shape=S, scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)] * 2, interpret=True)(x)
