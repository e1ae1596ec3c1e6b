"""`first, *rest = PIPELINE` takes the first kernel, which returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def head_kernel(x_ref, o_ref):
    return x_ref[...] - 1  # expect: PAL001

def tail_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

PIPELINE = [head_kernel, tail_kernel, tail_kernel]
first, *rest = PIPELINE

def run(x):
    return pl.pallas_call(first, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
