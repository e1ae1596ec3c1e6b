"""PrefetchScalarGridSpec(num_scalar_prefetch=1) with the kernel taking the prefetch ref first.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


def gather_rows(idx, x):
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(idx.shape[0],),
        in_specs=[pl.BlockSpec((8, 128), lambda i, idx_ref: (idx_ref[i], 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i, idx_ref: (i, 0)),
    )
    out = jax.ShapeDtypeStruct((8 * idx.shape[0], 128), x.dtype)
    return pl.pallas_call(kernel, out_shape=out, grid_spec=grid_spec, interpret=True)(idx, x)


print(gather_rows(jnp.array([1, 0], jnp.int32), jnp.ones((16, 128), jnp.float32)).sum())
