# expect: clean
"""16 MiB of double-buffered tiles and a 4 MiB VMEM accumulator: it compiles (scratch is not
counted against the scoped limit the tiles fill)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def accumulate(x_ref, o_ref, acc_ref):
    acc_ref[...] = x_ref[...] * 2.0
    o_ref[...] = acc_ref[...]


x = jnp.ones((2048, 1024), jnp.float32)
y = pl.pallas_call(
    accumulate,
    grid=(2,),
    in_specs=[pl.BlockSpec((1024, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((1024, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    scratch_shapes=[pltpu.VMEM((1024, 1024), jnp.float32)],
)(x)
print(y.sum())
