"""impls.TABLE keyed by modes.Impl members; main picks Impl.SAFE.  JAX: runs."""
from jax.experimental import pallas as pl
import impls
from modes import Impl

kernel = impls.TABLE[Impl.SAFE]
print(pl.pallas_call(kernel, out_shape=impls.S, interpret=True)(impls.x).sum())
