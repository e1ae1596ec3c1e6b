"""The same ref under two keys; the dict's values are splatted into the call.  JAX: NotImplementedError "Cannot pass the same ref"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

buf = jax.new_ref(jnp.ones((8, 128), jnp.float32))
bufs = {"src": buf, "dst": buf}
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(*bufs.values())  # expect: PAL002
