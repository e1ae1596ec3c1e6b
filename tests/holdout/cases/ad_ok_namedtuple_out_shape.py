"""A namedtuple out_shape of two structs gives two output parameters.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
import collections
Outs = collections.namedtuple("Outs", ["a", "b"])
def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...] * 2
pl.pallas_call(kernel, out_shape=Outs(S, S), interpret=True)(x)
