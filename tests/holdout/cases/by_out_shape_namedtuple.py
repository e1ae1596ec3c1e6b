"""out_shape is a NamedTuple of two structs; kernel(x_ref, o_ref).  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Outs(typing.NamedTuple):
    a: jax.ShapeDtypeStruct
    b: jax.ShapeDtypeStruct


def kernel(x_ref, o_ref):
    pass


outs = pl.pallas_call(kernel, out_shape=Outs(a=S, b=S), interpret=True)(x)  # expect: PAL004
print(outs)
