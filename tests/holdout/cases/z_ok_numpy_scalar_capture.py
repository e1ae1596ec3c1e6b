"""The kernel closes over a numpy float32 scalar.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
import numpy as np
SCALE = np.float32(0.5)
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)
