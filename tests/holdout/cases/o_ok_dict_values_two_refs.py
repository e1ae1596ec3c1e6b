"""Two Refs in a dict, splatted with *refs.values(): two objects.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

refs = {"acc": jax.new_ref(jnp.ones((8, 128), jnp.float32)), "src": jax.new_ref(jnp.ones((8, 128), jnp.float32))}
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(*refs.values())
print(jax.freeze(refs["acc"]).sum())
