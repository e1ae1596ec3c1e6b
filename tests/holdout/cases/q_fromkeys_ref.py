"""dict.fromkeys(names, jax.new_ref(x)) shares ONE Ref among the keys.  JAX: NotImplementedError "Cannot pass the same ref"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

bufs = dict.fromkeys(["src", "dst"], jax.new_ref(jnp.ones((8, 128), jnp.float32)))
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs["src"], bufs["dst"])  # expect: PAL002
