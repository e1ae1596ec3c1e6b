"""dict.fromkeys, then one key given a new ref.  JAX: runs."""
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
bufs = dict.fromkeys(["src", "dst"], jax.new_ref(x))
bufs["dst"] = jax.new_ref(x)
run(bufs["src"], bufs["dst"])
