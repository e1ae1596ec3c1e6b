"""A dict comprehension makes a Ref per key: two objects.  JAX: runs."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

bufs = {k: jax.new_ref(jnp.ones((8, 128), jnp.float32)) for k in ("src", "dst")}
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs["src"], bufs["dst"])
print(jax.freeze(bufs["dst"]).sum())
