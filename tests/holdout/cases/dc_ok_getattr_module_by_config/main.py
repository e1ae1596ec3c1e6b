"""main runs getattr(kernels, settings.NAME) with NAME = 'copy'.  JAX: runs."""
from jax.experimental import pallas as pl
import kernels
import settings

kernel = getattr(kernels, settings.NAME)
print(pl.pallas_call(kernel, out_shape=kernels.S, interpret=True)(kernels.x).sum())
