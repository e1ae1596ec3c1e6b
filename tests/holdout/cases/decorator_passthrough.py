"""A registry decorator that returns the function unchanged, stacked on the kernel.
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

_REGISTRY = {}


def register(name):
    def deco(fn):
        _REGISTRY[name] = fn
        return fn

    return deco


@register("square")
def square_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] ** 2
    return False  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(_REGISTRY["square"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
print(pl.pallas_call(square_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
