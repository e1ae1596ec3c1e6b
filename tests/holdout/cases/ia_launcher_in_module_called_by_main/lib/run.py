import jax
from jax.experimental import pallas as pl
from lib import kernels


def run(name, x):
    kernel = getattr(kernels, name)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
