"""*pair where Pair.__iter__ yields the same Ref twice.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __iter__(self):
        yield self.a
        yield self.a

pair = Pair(jax.new_ref(jnp.ones((8, 128), jnp.float32)), jax.new_ref(jnp.zeros((8, 128), jnp.float32)))
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(*pair)  # expect: PAL002
