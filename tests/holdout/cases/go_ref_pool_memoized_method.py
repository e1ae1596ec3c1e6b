"""a pool's get() memoizes one Ref per name in a dict  JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
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



class Pool:
    def __init__(self):
        self._refs = {}

    def get(self, name):
        if name not in self._refs:
            self._refs[name] = jax.new_ref(jnp.zeros((8, 128), jnp.float32))
        return self._refs[name]


pool = Pool()
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(pool.get("a"), pool.get("a"))  # expect: PAL002
