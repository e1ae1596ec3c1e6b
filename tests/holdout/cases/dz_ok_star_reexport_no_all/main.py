"""pkg/__init__ does `from .impl import *` (no __all__); main launches pkg.copy.  JAX: runs."""
from jax.experimental import pallas as pl
import pkg

print(pl.pallas_call(pkg.copy, out_shape=pkg.S, interpret=True)(pkg.x).sum())
