"""refs[i % 2 - 1] and refs[1] are two Refs when i is 3.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

refs = [jax.new_ref(jnp.ones((8, 128), jnp.float32)), jax.new_ref(jnp.zeros((8, 128), jnp.float32))]
i = 3
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(refs[i % 2 - 1], refs[1])
print(jax.freeze(refs[1]).sum())
