"""main runs getattr(kernels, settings.NAME) with NAME = 'bump'.  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
import kernels
import settings

kernel = getattr(kernels, settings.NAME)
print(pl.pallas_call(kernel, out_shape=kernels.S, interpret=True)(kernels.x).sum())
