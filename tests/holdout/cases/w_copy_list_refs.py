"""copy.copy of a list of Refs is shallow: its first element is the same Ref.  JAX: NotImplementedError "Cannot pass the same ref"."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy_kernel(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

refs = [jax.new_ref(jnp.ones((8, 128), jnp.float32)), jax.new_ref(jnp.zeros((8, 128), jnp.float32))]
backup = copy.copy(refs)
pl.kernel(copy_kernel, mesh=mesh, interpret=pltpu.InterpretParams())(refs[0], backup[0])  # expect: PAL002
