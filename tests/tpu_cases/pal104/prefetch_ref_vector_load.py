# expect: PAL104
"""Scalar-prefetch indices read as a vector."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] + jnp.sum(idx_ref[...]).astype(jnp.float32)


idx = jnp.array([1, 0], jnp.int32)
x = jnp.ones((16, 128), jnp.float32)
spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i, idx: (idx[i], 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i, idx: (i, 0)),
)
print(pl.pallas_call(kernel, grid_spec=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(idx, x).sum())
