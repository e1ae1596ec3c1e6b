# expect: clean
"""32 MiB of tiles, with the scoped limit raised to 64 MiB in the compiler parameters."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

MiB = 1024 * 1024


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((4096, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(2,),
    in_specs=[pl.BlockSpec((2048, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((2048, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(vmem_limit_bytes=64 * MiB),
)(x)
print(y.sum())
