"""A functools.wraps timing/trace decorator that FORWARDS the kernel's return value (contrast
with decorator_discards_return_ok).  JAX: ValueError "... should return None"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        return result

    return wrapper


@traced
def abs_kernel(x_ref, o_ref):
    o_ref[...] = jnp.abs(x_ref[...])
    return 1  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(abs_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
