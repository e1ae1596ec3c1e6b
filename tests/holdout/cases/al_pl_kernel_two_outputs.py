"""pl.kernel with out_type of two structs; the body takes one input and one output.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@pl.kernel(out_type=(S, S), mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):  # expect: PAL004
    copy(src_ref, dst_ref)

print(run(x))
