"""A nested pl.kernel returns its value only when reduction == 'none'; called with 'sum'.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def loss_fwd(x, *, reduction="sum"):
    @pl.kernel(out_type=S, mesh=mesh, interpret=pltpu.InterpretParams(),
               scratch_types=(pltpu.VMEM((8, 128), jnp.float32),))
    def loss_kernel(x_hbm, o_hbm, buf):
        pltpu.sync_copy(x_hbm, buf)
        if reduction == "none":
            return buf[...]
        pltpu.sync_copy(buf, o_hbm)

    out = loss_kernel(x)
    return jnp.sum(out) if reduction == "sum" else out


print(loss_fwd(x, reduction='sum'))
