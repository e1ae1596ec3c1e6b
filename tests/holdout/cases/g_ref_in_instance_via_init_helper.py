"""`__init__` calls a helper that stores a new Ref on self; `b.scratch` passed twice.  JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

class Buffers:
    def __init__(self):
        self._make()

    def _make(self):
        self.scratch = jax.new_ref(jnp.zeros((8, 128), jnp.float32))

b = Buffers()
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(b.scratch, b.scratch)  # expect: PAL002
