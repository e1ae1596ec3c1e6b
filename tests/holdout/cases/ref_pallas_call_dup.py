"""pallas_call launched through a helper-built ref passed twice.
JAX: ValueError "only one reference to a mutable array may be passed as an argument"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def as_ref(v):
    return jax.new_ref(v)


r = as_ref(jnp.ones((8, 128), jnp.float32))
add = pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)
print(add(r, r).sum())  # expect: PAL002
