"""A factory appends closures to a local list in a loop; the kernels return.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def make_kernels(scales):
    kernels = []
    for s in scales:
        def kernel(x_ref, o_ref, s=s):
            return x_ref[...] * s  # expect: PAL001
        kernels.append(kernel)
    return kernels

def run(x):
    return [pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x) for k in make_kernels((1.0, 2.0))]

print([r.sum() for r in run(jnp.ones((8, 128)))])
