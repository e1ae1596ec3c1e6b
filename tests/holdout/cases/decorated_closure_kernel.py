"""The docs' idiom: `@functools.partial(pl.pallas_call, out_shape=...)` on a closure kernel
inside the op function.  JAX: ValueError "... should return None"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_vectors(x, y):
    @functools.partial(pl.pallas_call, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)
    def kernel(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]
        return [o_ref[...]]  # expect: PAL001

    return kernel(x, y)


print(add_vectors(jnp.ones((8, 128)), jnp.ones((8, 128))).sum())
