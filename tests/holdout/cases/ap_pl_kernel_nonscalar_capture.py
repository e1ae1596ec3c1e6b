"""A pl.kernel body closes over a (8, 128) jax array.  JAX: error (non-scalar constants)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

x = jnp.ones((8, 128), jnp.float32)
W = jnp.full((8, 128), 2.0, jnp.float32)

@pl.kernel(out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=mesh, interpret=pltpu.InterpretParams(),
           scratch_types=[pltpu.VMEM((8, 128), jnp.float32)])
def scaled(x_hbm, o_hbm, buf):
    pltpu.sync_copy(x_hbm, buf)
    buf[...] = buf[...] * W  # expect: PAL003
    pltpu.sync_copy(buf, o_hbm)

print(scaled(x).sum())
