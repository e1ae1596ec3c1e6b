"""In a loop, bufs[i] and bufs[(i + 1) % 2] are two refs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):
    copy(src_ref, dst_ref)

x = jnp.ones((8, 128), jnp.float32)
bufs = [jax.new_ref(x), jax.new_ref(x)]
for i in range(2):
    run(bufs[i], bufs[(i + 1) % 2])
