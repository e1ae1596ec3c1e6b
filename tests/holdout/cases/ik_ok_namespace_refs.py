"""refs held by a SimpleNamespace  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def _copy(src, dst):
    pltpu.sync_copy(src, dst)


bufs = types.SimpleNamespace(a=jax.new_ref(jnp.zeros((8, 128), jnp.float32)), b=jax.new_ref(jnp.zeros((8, 128), jnp.float32)))
alias = bufs

pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs.a, alias.b)
