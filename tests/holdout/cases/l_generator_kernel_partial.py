"""A partial of a generator kernel.  JAX: TypeError "not a valid JAX type"."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def scaled_kernel(x_ref, o_ref, scale):  # expect: PAL005
    o_ref[...] = x_ref[...] * scale
    yield
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(functools.partial(scaled_kernel, scale=2.0), x).sum())
