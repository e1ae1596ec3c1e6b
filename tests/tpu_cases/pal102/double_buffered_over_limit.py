# expect: PAL102
"""Big f32 tiles in and out: each double-buffered, 32 MiB in all (v5e's scoped limit is 16 MiB)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((4096, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(2,),
    in_specs=[pl.BlockSpec((2048, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((2048, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
)(x)
print(y.sum())
