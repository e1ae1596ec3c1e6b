# expect: PAL104
"""Scale factors kept in SMEM, read whole."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale_kernel(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[...]


s = jnp.full((8, 128), 2.0, jnp.float32)
x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    scale_kernel,
    in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pltpu.VMEM)],
    out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(s, x)
print(y.sum())
