# expect: clean
"""cumsum on the host before the launch: not in the kernel."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0


x = jnp.cumsum(jnp.ones((8, 128), jnp.float32), axis=1)
y = pl.pallas_call(add, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
print(y.sum())
