"""Kernels from `itertools.chain(FIRST, SECOND)`; b returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def a(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def b(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

FIRST = [a]
SECOND = (b,)

def run_all(x):
    return [pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x) for k in itertools.chain(FIRST, SECOND)]

print([r.sum() for r in run_all(jnp.ones((8, 128)))])
