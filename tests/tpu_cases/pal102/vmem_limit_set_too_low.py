# expect: PAL102
"""The limit set by hand to 8 MiB, under the 12 MiB the tiles need."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


LIMIT = 8 * 1024 * 1024
params = pltpu.CompilerParams(dimension_semantics=("arbitrary",), vmem_limit_bytes=LIMIT)


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((3072, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(4,),
    in_specs=[pl.BlockSpec((768, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((768, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=params,
)(x)
print(y.sum())
