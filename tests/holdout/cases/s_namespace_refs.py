"""One Ref stored under two names of a SimpleNamespace.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
bufs = types.SimpleNamespace(src=r, dst=r)
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs.src, bufs.dst)  # expect: PAL002
