"""Keyword options forwarded through `**opts` into functools.partial; the kernel returns (and gets its keyword-only argument: no PAL004).  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def _kernel(x_ref, o_ref, *, alpha):
    return x_ref[...] * alpha  # expect: PAL001

def launch(x, kernel, **kernel_kwargs):
    k = functools.partial(kernel, **kernel_kwargs)
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

def run(x, **opts):
    return launch(x, _kernel, **opts)

print(run(jnp.ones((8, 128)), alpha=0.5).sum())
