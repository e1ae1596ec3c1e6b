# expect: PAL103
"""cumsum inside a pl.when body of the kernel."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = jnp.cumsum(x_ref[...], axis=0)

x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(kernel, grid=(1,), in_specs=[pl.BlockSpec((8, 128), lambda i: (0, 0))],
                   out_specs=pl.BlockSpec((8, 128), lambda i: (0, 0)),
                   out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
