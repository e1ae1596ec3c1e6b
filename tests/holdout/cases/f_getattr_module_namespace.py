"""A `types.ModuleType` namespace filled by attribute assignment, read with getattr; the kernel returns.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

import types

ops = types.ModuleType("ops")

def _tanh(x_ref, o_ref):
    return jnp.tanh(x_ref[...])  # expect: PAL001

ops.tanh = _tanh

def run(name, x):
    return pl.pallas_call(getattr(ops, name), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run("tanh", jnp.ones((8, 128))).sum())
