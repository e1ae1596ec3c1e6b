"""A helper returns (r, r); its result is splatted into a pl.kernel call.  JAX: NotImplementedError "Cannot pass the same ref"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

def in_place(ref):
    return ref, ref

buf = jax.new_ref(jnp.ones((8, 128), jnp.float32))
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(*in_place(buf))  # expect: PAL002
