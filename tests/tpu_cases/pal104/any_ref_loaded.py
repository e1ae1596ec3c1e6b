# expect: PAL104
"""An input left in HBM (pl.ANY) and read as if it were in VMEM."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_hbm, o_ref):
    o_ref[...] = x_hbm[...] + 1.0


x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    kernel,
    in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(y.sum())
