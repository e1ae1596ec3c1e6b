"""out_shape comes from a helper module  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from shapes import out_shapes


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((8, 128), jnp.float32)
outs = pl.pallas_call(kernel, out_shape=out_shapes(x), interpret=True)(x)
