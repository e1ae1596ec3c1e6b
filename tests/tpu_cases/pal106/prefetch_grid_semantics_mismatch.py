# expect: PAL106
"""A scalar-prefetch grid spec of rank 1 with two semantics."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


idx = jnp.array([1, 0], jnp.int32)
x = jnp.ones((16, 128), jnp.float32)
grid_spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i, idx: (idx[i], 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i, idx: (i, 0)),
)
y = pl.pallas_call(kernel, grid_spec=grid_spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                   compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")))(idx, x)
print(y.sum())
