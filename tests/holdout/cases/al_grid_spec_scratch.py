"""Scratch lives in the grid spec: two buffers; the kernel takes one.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, buf):
    buf[...] = x_ref[...]
    o_ref[...] = buf[...]

spec = pl.BlockSpec((8, 128), lambda i: (0, 0))
gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(1,), in_specs=[spec], out_specs=spec,
                                  scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)] * 2)
print(pl.pallas_call(kernel, out_shape=S, grid_spec=gs, interpret=True)(x).sum())  # expect: PAL004
