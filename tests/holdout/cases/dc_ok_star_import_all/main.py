"""pkg/__init__ star-imports impl, whose __all__ exports kernel = copy.  JAX: runs."""
from jax.experimental import pallas as pl
from pkg import kernel
from pkg.kernels import S, x

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
