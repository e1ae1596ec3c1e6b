"""A pl.kernel body nested in an op reads the op's array parameter w.  JAX: error (captures a non-scalar constant)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def scale_by(x, w):
    @pl.kernel(out_type=S, mesh=mesh, interpret=pltpu.InterpretParams(),
               scratch_types=(pltpu.VMEM((8, 128), jnp.float32),))
    def scale_kernel(x_hbm, o_hbm, buf):
        pltpu.sync_copy(x_hbm, buf)
        buf[...] = buf[...] * w  # expect: PAL003
        pltpu.sync_copy(buf, o_hbm)

    return scale_kernel(x)


print(scale_by(x, jnp.full((8, 128), 2.0, jnp.float32)).sum())
