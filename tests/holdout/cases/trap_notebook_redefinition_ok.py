"""Notebook style: `kernel` redefined three times with different arities; each launch uses the
definition live at that point (2, 3, then 3 refs with two outputs).  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


# %% [markdown]  a first kernel: add one
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x).sum())


# %% now two inputs
def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


print(pl.pallas_call(kernel, out_shape=shape, interpret=True)(x, x).sum())


# %% and two outputs
def kernel(x_ref, lo_ref, hi_ref):
    lo_ref[...] = x_ref[...] - 1
    hi_ref[...] = x_ref[...] + 1


lo, hi = pl.pallas_call(kernel, out_shape=(shape, shape), interpret=True)(x)
print(lo.sum(), hi.sum())
