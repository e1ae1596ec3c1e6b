"""out_shape made by jax.tree.map over a pair: two outputs, the kernel writes one.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
shapes = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), (x, x))
print(pl.pallas_call(kernel, out_shape=shapes, interpret=True)(x))  # expect: PAL004
