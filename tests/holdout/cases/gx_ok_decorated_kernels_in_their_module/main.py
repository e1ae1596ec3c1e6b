"""kernels decorated by a registrar in their own module; main takes by name  JAX: runs."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
import pkg.impl
from pkg.registry import IMPLS

kernel = IMPLS["a"]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
