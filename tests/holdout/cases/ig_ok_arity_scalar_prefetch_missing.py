"""scalar prefetch adds a leading ref the kernel lacks  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


spec = pl.BlockSpec((8, 128), lambda i, idx: (0, 0))
gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(1,), in_specs=[spec], out_specs=spec)
outs = pl.pallas_call(kernel, out_shape=S, grid_spec=gs, interpret=True)(jnp.array([2], jnp.int32), x)
