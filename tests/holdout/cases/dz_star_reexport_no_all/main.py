"""pkg/__init__ does `from .impl import *` (no __all__); main launches pkg.bump.  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
import pkg

print(pl.pallas_call(pkg.bump, out_shape=pkg.S, interpret=True)(pkg.x).sum())
