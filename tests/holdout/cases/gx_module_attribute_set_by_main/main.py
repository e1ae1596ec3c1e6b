"""main sets pkg.config.FAST; a helper of pkg.ops reads it when called  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg import config, ops

config.FAST = True
kernel = ops.pick()
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
