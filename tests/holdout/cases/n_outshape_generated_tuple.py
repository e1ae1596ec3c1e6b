"""out_shape is a tuple built by a generator: two outputs, but the kernel takes one input and one output.  JAX: TypeError positional arguments."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
shapes = tuple(jax.ShapeDtypeStruct(x.shape, x.dtype) for _ in range(2))
print(pl.pallas_call(copy_kernel, out_shape=shapes, interpret=True)(x))  # expect: PAL004
