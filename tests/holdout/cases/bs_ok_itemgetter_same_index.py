"""operator.itemgetter(0, 0) picks one Ref twice (two Refs).  JAX: runs."""
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

bufs = [jax.new_ref(x), jax.new_ref(jnp.zeros_like(x))]
run(*operator.itemgetter(0, 1)(bufs))
print(jax.freeze(bufs[1]).sum())
