"""dict.get falls back to a default kernel that returns its result.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0)

def identity_kernel(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

ACTIVATIONS = {"relu": relu_kernel}

def apply(name, x):
    kernel = ACTIVATIONS.get(name, identity_kernel)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(apply("tanh", jnp.ones((8, 128), jnp.float32)).sum())
