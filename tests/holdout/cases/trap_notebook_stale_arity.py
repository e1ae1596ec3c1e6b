"""Notebook style: `kernel` is redefined with THREE refs but the next cell still launches it with
one input and one output.  JAX: TypeError "kernel() missing 1 required positional argument"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x).sum())


def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] * y_ref[...]


print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x).sum())  # expect: PAL004
