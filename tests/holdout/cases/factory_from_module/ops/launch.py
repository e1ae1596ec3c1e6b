import jax
from jax.experimental import pallas as pl

from .factories import make_activation_kernel


def activation(x, fn):
    kernel = make_activation_kernel(fn, clip=6.0)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
