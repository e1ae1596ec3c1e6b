"""a scalar-prefetch grid spec passes the prefetched ref first  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(1,),
    in_specs=[pl.BlockSpec((8, 128), lambda i, s: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i, s: (0, 0)),
)
idx = jnp.zeros((1,), jnp.int32)


def kernel(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


print(pl.pallas_call(kernel, out_shape=S, grid_spec=spec, interpret=True)(idx, x).sum())
