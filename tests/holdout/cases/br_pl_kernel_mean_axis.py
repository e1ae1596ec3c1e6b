"""A pl.kernel body reads a module-level array's mean over axis 0 (a vector).  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128) / 1024
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
MEAN = x.mean(axis=0)

@functools.partial(pl.kernel, out_type=S, mesh=mesh, scratch_types=[pltpu.VMEM((8, 128), jnp.float32)], interpret=pltpu.InterpretParams())
def scale(x_hbm, o_hbm, tmp):
    pltpu.sync_copy(x_hbm, tmp)
    tmp[...] = tmp[...] * MEAN  # expect: PAL003
    pltpu.sync_copy(tmp, o_hbm)

print(scale(x).sum())
