"""The launch is called with *args, a tuple of two arrays; the kernel takes one input.  JAX: TypeError positional arguments."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
args = (x, x)
print(pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(*args).sum())  # expect: PAL004
