"""A helper builds a PrefetchScalarGridSpec with one scalar-prefetch operand; the kernel has no parameter for it.  JAX: TypeError positional arguments."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def grid_spec(block):
    return pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(1,),
        in_specs=[pl.BlockSpec(block, lambda i, s: (0, 0))],
        out_specs=pl.BlockSpec(block, lambda i, s: (0, 0)),
    )

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
offsets = jnp.zeros((1,), jnp.int32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid_spec=grid_spec((8, 128)), interpret=True)(offsets, x).sum())  # expect: PAL004
