"""Paged-gather style launch: PrefetchScalarGridSpec(num_scalar_prefetch=2) under a jitted wrapper with
static args; the functools.partial kernel takes both prefetch refs, then x, then the output.
JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _gather_kernel(block_tables_ref, lengths_ref, x_ref, o_ref, *, block_rows, scale, mask_value):
    del block_tables_ref, lengths_ref, block_rows
    o_ref[...] = jnp.where(x_ref[...] > mask_value, x_ref[...] * scale, 0.0)


@functools.partial(jax.jit, static_argnames=("block_rows", "scale"))
def paged_gather(block_tables, lengths, x, *, block_rows=8, scale=0.5):
    num_blocks = block_tables.shape[0]
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=2,
        grid=(num_blocks,),
        in_specs=[pl.BlockSpec((block_rows, 128), lambda i, tables, lens: (tables[i], 0))],
        out_specs=pl.BlockSpec((block_rows, 128), lambda i, tables, lens: (i, 0)),
    )
    kernel = functools.partial(_gather_kernel, block_rows=block_rows, scale=scale, mask_value=-1e30)
    return pl.pallas_call(
        kernel,
        grid_spec=grid_spec,
        out_shape=jax.ShapeDtypeStruct((num_blocks * block_rows, 128), x.dtype),
        interpret=True,
    )(block_tables, lengths, x)


tables = jnp.array([1, 0], jnp.int32)
lens = jnp.array([8, 8], jnp.int32)
print(paged_gather(tables, lens, jnp.ones((16, 128), jnp.float32)).sum())
