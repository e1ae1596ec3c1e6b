"""A comprehension filters the returning kernel out; only storing kernels are launched.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def neg_kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]

def broken_kernel(x_ref, o_ref):
    return x_ref[...]

ALL = [copy_kernel, neg_kernel, broken_kernel]
SAFE = [k for k in ALL if k is not broken_kernel]
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
for kernel in SAFE:
    print(call(kernel, x).sum())
