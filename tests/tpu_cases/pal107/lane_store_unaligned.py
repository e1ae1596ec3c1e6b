# expect: PAL107
"""A store into lanes at a dynamic offset 32 * i."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def place(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = jnp.zeros_like(o_ref)
    o_ref[:, pl.ds(i * 32, 128)] = x_ref[...]


x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    place,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (0, 0))],
    out_specs=pl.BlockSpec((8, 512), lambda i: (0, 0)),
    out_shape=jax.ShapeDtypeStruct((8, 512), jnp.float32),
)(x)
print(y.sum())
