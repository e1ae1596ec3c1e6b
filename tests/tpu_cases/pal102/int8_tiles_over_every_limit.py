# expect: PAL102
"""int8 (4096, 4096) tiles in and out: 16 MiB each, double-buffered, 64 MiB."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((8192, 4096), jnp.int8)
y = pl.pallas_call(
    copy,
    grid=(2,),
    in_specs=[pl.BlockSpec((4096, 4096), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((4096, 4096), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(y.astype(jnp.int32).sum())
