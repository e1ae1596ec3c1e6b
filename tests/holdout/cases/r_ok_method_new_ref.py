"""pool.make() returns a new Ref each call: two objects.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

class Pool:
    def make(self):
        return jax.new_ref(jnp.ones((8, 128), jnp.float32))

pool = Pool()
dst = pool.make()
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(pool.make(), dst)
print(jax.freeze(dst).sum())
