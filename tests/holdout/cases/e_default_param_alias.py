"""The kernel table is a default parameter and the index a default `-1`; k1 returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def k0(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def k1(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

KS = (k0, k1)

def run(x, kernels=KS, which=-1):
    return pl.pallas_call(kernels[which], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
