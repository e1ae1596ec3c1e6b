"""A match/case selector called with a constant picks the valid kernel.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def f32_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

def bf16_kernel(x_ref, o_ref):
    return x_ref[...] * 2

def select(dtype_name):
    match dtype_name:
        case "float32":
            return f32_kernel
        case "bfloat16":
            return bf16_kernel
        case _:
            raise ValueError(dtype_name)

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(select("float32"), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
