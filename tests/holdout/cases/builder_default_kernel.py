"""A builder whose kernel is a parameter default: `build_call(kernel=_copy_kernel)`.
JAX: ValueError "... should return None" from the default kernel."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    return x_ref  # expect: PAL001


def build_call(shape, dtype, kernel=_copy_kernel, *, interpret=True):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(shape, dtype), interpret=interpret)


x = jnp.ones((8, 128), jnp.float32)
print(build_call(x.shape, x.dtype)(x).sum())
