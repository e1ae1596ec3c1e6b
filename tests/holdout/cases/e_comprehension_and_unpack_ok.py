"""Kernels picked by a filtered generator expression, by star-unpacking and from a comprehension
over (name, kernel) pairs; each writes its output ref.  JAX: runs."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def k_small(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def k_large(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

CANDIDATES = [(128, k_small), (1024, k_large)]
first, *rest = [k for _, k in CANDIDATES]

def pick(n):
    return next(k for limit, k in CANDIDATES if n <= limit)

def run(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    a = pl.pallas_call(pick(x.shape[1]), out_shape=shape, interpret=True)(x)
    b = pl.pallas_call(first, out_shape=shape, interpret=True)(x)
    c = [pl.pallas_call(k, out_shape=shape, interpret=True)(x) for k in rest]
    return a.sum() + b.sum() + sum(r.sum() for r in c)

print(run(jnp.ones((8, 512))))
