"""scratch_types = [pltpu.VMEM((8, 128), jnp.float32)] * 3; the kernel takes two scratch buffers.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

SCRATCH = [pltpu.VMEM((8, 128), jnp.float32)] * 3


@pl.kernel(out_type=S, mesh=mesh, scratch_types=SCRATCH, interpret=pltpu.InterpretParams())
def staged(x_hbm, o_hbm, buf_a, buf_b):  # expect: PAL004
    pltpu.sync_copy(x_hbm, buf_a)
    buf_b[...] = buf_a[...] * 2
    pltpu.sync_copy(buf_b, o_hbm)


print(staged(x).sum())
