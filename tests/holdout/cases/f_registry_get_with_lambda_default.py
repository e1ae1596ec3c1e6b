"""`_REGISTRY.get(name) or (lambda ...)`: the lambda fallback returns its input.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def exp_kernel(x_ref, o_ref):
    o_ref[...] = jnp.exp(x_ref[...])

_REGISTRY = {"exp": exp_kernel}

def lookup(name):
    return _REGISTRY.get(name) or (lambda x_ref, o_ref: x_ref[...])  # expect: PAL001

def run(name, x):
    return pl.pallas_call(lookup(name), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(run("exp", x).sum(), run("log", x).sum())
