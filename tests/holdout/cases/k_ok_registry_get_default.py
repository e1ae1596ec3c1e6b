"""A registry lookup that misses falls back to the storing kernel; the returning one is registered under another name and never launched.  JAX: runs."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def legacy_kernel(x_ref, o_ref):
    return x_ref[...]

REGISTRY = {"legacy": legacy_kernel}
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
kernel = REGISTRY.get("fast") or copy_kernel
print(call(kernel, x).sum())
