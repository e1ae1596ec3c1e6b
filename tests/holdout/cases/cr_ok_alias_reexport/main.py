"""pkg/__init__.py re-exports kernels.copy as default_kernel.  JAX: runs."""
from jax.experimental import pallas as pl
import pkg
from pkg import kernels

print(pl.pallas_call(pkg.default_kernel, out_shape=kernels.S, interpret=True)(kernels.x).sum())
