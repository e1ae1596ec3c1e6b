"""A `@stage` decorator appends kernels to a module-level list; s2 returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

STAGES = []

def stage(fn):
    STAGES.append(fn)
    return fn

@stage
def s1(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1

@stage
def s2(x_ref, o_ref):
    return x_ref[...] + 2  # expect: PAL001

def run(x):
    for k in STAGES:
        x = pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
    return x

print(run(jnp.ones((8, 128))).sum())
