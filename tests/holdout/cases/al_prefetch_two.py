"""num_scalar_prefetch=2; the kernel has one prefetch parameter.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]

idx = jnp.zeros((1,), jnp.int32)
spec = pl.BlockSpec((8, 128), lambda i, a, b: (0, 0))
gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=2, grid=(1,), in_specs=[spec], out_specs=spec)
print(pl.pallas_call(kernel, out_shape=S, grid_spec=gs, interpret=True)(idx, idx, x).sum())  # expect: PAL004
