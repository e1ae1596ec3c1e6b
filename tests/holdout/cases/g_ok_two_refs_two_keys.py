"""A helper called twice stores two Refs under two keys; both passed once each.  JAX: runs."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

POOL = {}

def allocate(name):
    POOL[name] = jax.new_ref(jnp.zeros((8, 128), jnp.float32))

allocate("x")
allocate("y")
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(POOL["x"], POOL["y"])
