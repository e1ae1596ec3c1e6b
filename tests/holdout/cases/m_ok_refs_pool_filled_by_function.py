"""A helper makes a Ref per name into a pool; POOL["x"] and POOL["y"] are two Refs.  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

POOL = {}

def allocate(name):
    POOL[name] = jax.new_ref(jnp.zeros((8, 128), jnp.float32))

allocate("x")
allocate("y")
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(POOL["x"], POOL["y"])
print("ok")
