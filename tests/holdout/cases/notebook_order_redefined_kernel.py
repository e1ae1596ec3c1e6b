"""Notebook order: `run` reads the global `kernel` when it runs, and it runs (handed to a helper)
after the next cell redefined `kernel` with a keyword-only parameter that nothing binds.  JAX: TypeError "missing 1
required keyword-only argument: 'scale'"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def run(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)  # expect: PAL004


def total(f, x):
    return f(x).sum()


x = jnp.ones((8, 128), jnp.float32)
print(total(run, x))


def kernel(x_ref, o_ref, *, scale):
    o_ref[...] = x_ref[...] * scale


print(total(run, x))
