"""Two refs made by one comprehension are two objects; passing both is fine.  JAX: runs."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

src, dst = [jax.new_ref(jnp.full((8, 128), float(i), jnp.float32)) for i in range(2)]
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(src, dst)
print(dst[...].sum())
