"""num_scalar_prefetch=len(prefetch) with 2 arrays; the kernel takes two prefetch refs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(a_ref, b_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] + a_ref[0] + b_ref[0]


prefetch = [jnp.array([1], jnp.int32)] * 2
spec = pl.BlockSpec((8, 128), lambda i, *_: (0, 0))
grid_spec = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=len(prefetch), grid=(1,), in_specs=[spec], out_specs=spec)
print(pl.pallas_call(kernel, out_shape=S, grid_spec=grid_spec, interpret=True)(*prefetch, x).sum())
