"""getattr on a SimpleNamespace of kernels with a computed name; the chosen one is a generator.  JAX: TypeError (NoneType has no len)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

import types

def double_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

def triple_kernel(x_ref, o_ref):  # expect: PAL005
    o_ref[...] = x_ref[...] * 3
    yield

ops = types.SimpleNamespace(double_kernel=double_kernel, triple_kernel=triple_kernel)

def run(name, x):
    kernel = getattr(ops, f"{name}_kernel")
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run("triple", jnp.ones((8, 128), jnp.float32)).sum())
