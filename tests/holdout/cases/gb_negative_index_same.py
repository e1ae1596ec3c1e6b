"""pool[0] and pool[-2] of a two-element pool  JAX: NotImplementedError (same ref)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)


@pl.kernel(out_type=(), mesh=mesh, interpret=pltpu.InterpretParams())
def copy_kernel(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


pool = [jax.new_ref(x), jax.new_ref(x)]
copy_kernel(pool[0], pool[-2])  # expect: PAL002
print(x.sum())
