"""Two refs chosen from one list by indexes that compute to the same position.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

x = jnp.ones((8, 128), jnp.float32)
refs = [jax.new_ref(x) for _ in range(3)]
src, dst = refs[len(refs) - 1], refs[-1]

@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(a_ref, b_ref):
    copy(a_ref, b_ref)

run(src, dst)  # expect: PAL002
