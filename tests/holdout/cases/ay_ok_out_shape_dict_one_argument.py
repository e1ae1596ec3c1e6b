"""out_shape is a dict of two shapes; the kernel takes one dict of output refs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_refs):
    o_refs["a"][...] = x_ref[...]
    o_refs["b"][...] = x_ref[...] + 1

print(pl.pallas_call(kernel, out_shape={"a": S, "b": S}, interpret=True)(x))
