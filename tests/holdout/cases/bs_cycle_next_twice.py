"""itertools.cycle over one Ref, next() twice.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

pool = itertools.cycle([jax.new_ref(x)])
run(next(pool), next(pool))  # expect: PAL002
