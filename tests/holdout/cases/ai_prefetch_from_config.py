"""num_scalar_prefetch comes from a config class; the kernel has no parameter for it.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

class Config:
    NUM_PREFETCH = 1

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

idx = jnp.zeros((1,), jnp.int32)
spec = pl.BlockSpec((8, 128), lambda i, idx_ref: (0, 0))
gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=Config.NUM_PREFETCH, grid=(1,), in_specs=[spec], out_specs=spec)
print(pl.pallas_call(kernel, out_shape=S, grid_spec=gs, interpret=True)(idx, x).sum())  # expect: PAL004
