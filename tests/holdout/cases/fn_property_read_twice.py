"""a property returning self._r read twice  JAX: NotImplementedError (same ref)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)


@pl.kernel(out_type=(), mesh=mesh, interpret=pltpu.InterpretParams())
def copy_kernel(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


class Holder:
    def __init__(self):
        self._r = jax.new_ref(x)

    @property
    def r(self):
        return self._r


h = Holder()
g = h
copy_kernel(h.r, g.r)  # expect: PAL002
print(x.sum())
