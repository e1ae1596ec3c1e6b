"""out_shape={"a": S, "b": S}: a dict is ONE output parameter.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    o_ref["a"][...] = x_ref[...]
    o_ref["b"][...] = x_ref[...]


def kernel3(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = x_ref[...]


out = pl.pallas_call(kernel, out_shape={"a": S, "b": S}, interpret=True)(x)
print(out["a"].sum())
