"""A context manager yields a config dict holding the kernel, which writes its output.  JAX: runs."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

import contextlib

def body(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 3

@contextlib.contextmanager
def tuning(block):
    yield {"block": block, "kernel": body}

def run(x):
    with tuning(128) as cfg:
        return pl.pallas_call(cfg["kernel"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
