"""Reflective access: kernels chosen with getattr on a module-like namespace and a computed name.  JAX: runs."""

import types
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0)


def neg_kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]


ns = types.SimpleNamespace(relu=relu_kernel, neg=neg_kernel)


def apply(kind, x):
    kernel = getattr(ns, kind)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


x = jnp.ones((8, 128), jnp.float32)
for k in ["relu", "neg"]:
    print(apply(k, x).sum())
