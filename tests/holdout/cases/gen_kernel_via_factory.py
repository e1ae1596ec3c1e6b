"""A factory whose inner kernel `yield from`s a helper generator.
JAX: TypeError "object of type 'NoneType' has no len()"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _rows(ref):
    yield from range(ref.shape[0])


def make_kernel(offset):
    def kernel(x_ref, o_ref):  # expect: PAL005
        o_ref[...] = x_ref[...] + offset
        yield from _rows(x_ref)

    return kernel


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(make_kernel(1.0), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
