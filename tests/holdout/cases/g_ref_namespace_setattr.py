"""Refs made in a module-level loop and set on a SimpleNamespace; `bufs.a` passed twice.  JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

bufs = types.SimpleNamespace()
for name in ("a", "b"):
    setattr(bufs, name, jax.new_ref(jnp.ones((8, 128), jnp.float32)))
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs.a, bufs.a)  # expect: PAL002
