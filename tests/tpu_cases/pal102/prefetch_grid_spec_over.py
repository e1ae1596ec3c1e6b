# expect: PAL102
"""A scalar-prefetch grid spec whose index_map reads the prefetched order: 32 MiB of tiles."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def gather(order_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


order = jnp.array([1, 0], jnp.int32)
x = jnp.ones((4096, 1024), jnp.float32)
grid_spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(2,),
    in_specs=[pl.BlockSpec((2048, 1024), lambda i, order: (order[i], 0))],
    out_specs=pl.BlockSpec((2048, 1024), lambda i, order: (i, 0)),
)
y = pl.pallas_call(gather, grid_spec=grid_spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(order, x)
print(y.sum())
