"""A table built with dict(name=fn); the selected kernel is a generator.  JAX: TypeError "not a valid JAX type"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def chunked_kernel(x_ref, o_ref):  # expect: PAL005
    for i in range(2):
        yield i
    o_ref[...] = x_ref[...]

KERNELS = dict(copy=copy_kernel, chunked=chunked_kernel)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(KERNELS["chunked"], x).sum())
