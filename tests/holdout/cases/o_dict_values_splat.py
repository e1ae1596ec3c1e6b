"""Refs kept in a dict under two names, splatted with *refs.values(): one Ref twice.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
refs = {"acc": r, "src": r}
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(*refs.values())  # expect: PAL002
