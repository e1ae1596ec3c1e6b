"""out_shape is a dict of two outputs; the kernel takes them as two parameters.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, out_ref, aux_ref):
    out_ref[...] = x_ref[...]
    aux_ref[...] = x_ref[...] * 2

x = jnp.ones((8, 128), jnp.float32)
shapes = {name: jax.ShapeDtypeStruct(x.shape, x.dtype) for name in ("out", "aux")}
print(pl.pallas_call(kernel, out_shape=shapes, interpret=True)(x))  # expect: PAL004
