"""dict.get finds the key, so the returning default is never launched.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0)

def identity_kernel(x_ref, o_ref):
    return x_ref[...]

ACTIVATIONS = {"relu": relu_kernel}
kernel = ACTIVATIONS.get("relu", identity_kernel)
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
