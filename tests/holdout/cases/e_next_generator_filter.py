"""`next(k for limit, k in CANDIDATES if n <= limit)` picks the kernel; k_large returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def k_small(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def k_large(x_ref, o_ref):
    return x_ref[...] * 2  # expect: PAL001

CANDIDATES = [(128, k_small), (1024, k_large)]

def pick(n):
    return next(k for limit, k in CANDIDATES if n <= limit)

def run(x):
    return pl.pallas_call(pick(x.shape[1]), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 512))).sum())
