# expect: clean
"""No grid, small arrays, a 20 MB VMEM scratch buffer: it compiles."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def via_scratch(x_ref, o_ref, buf_ref):
    buf_ref[:8, :] = x_ref[...]
    o_ref[...] = buf_ref[:8, :] + 1.0


x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    via_scratch,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    scratch_shapes=[pltpu.VMEM((40000, 128), jnp.float32)],
)(x)
print(y.sum())
