"""Notebook order (jax's docs/pallas/tpu/matmul.ipynb does this): a launcher reads the global
`kernel` when it runs.  The first `run` is used through a partial handed to a helper before the
next cell defines another `kernel` with one more keyword-only parameter and another `run` that
binds it: each launch meets its own kernel.  JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref, *, offset):
    o_ref[...] = x_ref[...] + offset


@functools.partial(jax.jit, static_argnames=["offset"])
def run(x, offset=1.0):
    return pl.pallas_call(
        functools.partial(kernel, offset=offset), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True
    )(x)


def total(f, x):
    return f(x).sum()


x = jnp.ones((8, 128), jnp.float32)
run_twice = functools.partial(run, offset=2.0)
print(total(run_twice, x))


def kernel(x_ref, o_ref, *, offset, scale):
    o_ref[...] = x_ref[...] * scale + offset


@functools.partial(jax.jit, static_argnames=["offset", "scale"])
def run(x, offset=1.0, scale=2.0):
    return pl.pallas_call(
        functools.partial(kernel, offset=offset, scale=scale),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,
    )(x)


print(total(run, x))
