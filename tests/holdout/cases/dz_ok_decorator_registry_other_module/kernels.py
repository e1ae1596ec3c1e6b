import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
import registry

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


@registry.register("copy")
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


@registry.register("bump")
def bump(x_ref, o_ref):
    return x_ref[...] + 1
