"""a plugin stores through the module attribute after the registrations  JAX: runs."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
import pkg.override
import pkg.plain
from pkg import registry

kernel = registry.IMPLS["main"]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
