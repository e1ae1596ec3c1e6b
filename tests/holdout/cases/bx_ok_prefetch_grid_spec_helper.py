"""A helper builds PrefetchScalarGridSpec(num_scalar_prefetch=1); the kernel takes one prefetch ref.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def make_grid_spec(num_prefetch):
    spec = pl.BlockSpec((8, 128), lambda i, *_: (0, 0))
    return pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=num_prefetch, grid=(1,), in_specs=[spec], out_specs=spec)


def offset_kernel(off_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] + off_ref[0]


offsets = jnp.array([3], jnp.int32)
args = (offsets,) * 1 + (x,)
print(pl.pallas_call(offset_kernel, out_shape=S, grid_spec=make_grid_spec(1), interpret=True)(*args).sum())
