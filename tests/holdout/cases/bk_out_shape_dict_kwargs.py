"""out_shape=dict(a=S, b=S) arrives as ONE parameter; the kernel takes one ref per entry.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...]

print(pl.pallas_call(kernel, out_shape=dict(a=S, b=S), interpret=True)(x)["a"].sum())  # expect: PAL004
