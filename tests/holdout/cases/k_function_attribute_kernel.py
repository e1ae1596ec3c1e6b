"""The kernel hangs off the public op as a function attribute.  JAX: ValueError "should return None"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _gelu_kernel(x_ref, o_ref):
    return jax.nn.gelu(x_ref[...])  # expect: PAL001

def gelu(x):
    return pl.pallas_call(gelu.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

gelu.kernel = _gelu_kernel
print(gelu(jnp.ones((8, 128), jnp.float32)).sum())
