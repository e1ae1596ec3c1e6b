__all__ = ["elementwise"]

import jax
from jax.experimental import pallas as pl


def elementwise(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
