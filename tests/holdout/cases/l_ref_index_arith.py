"""bufs[0] and bufs[2 - 2] are the same ref.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

a = jax.new_ref(jnp.ones((8, 128), jnp.float32))
b = jax.new_ref(jnp.zeros((8, 128), jnp.float32))
bufs = [a, b]
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs[0], bufs[2 - 2])  # expect: PAL002
