"""pl.kernel with scratch_types of 2 buffers; the body takes one scratch ref.  JAX: TypeError (kernel arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)


def body(x_ref, o_ref, buf_ref):
    pltpu.sync_copy(x_ref, buf_ref)
    pltpu.sync_copy(buf_ref, o_ref)


run = pl.kernel(
    body,  # expect: PAL004
    out_type=S,
    mesh=mesh,
    scratch_types=[pltpu.VMEM((8, 128), jnp.float32)] * 2,
    interpret=pltpu.InterpretParams(),
)
print(run(x).sum())
