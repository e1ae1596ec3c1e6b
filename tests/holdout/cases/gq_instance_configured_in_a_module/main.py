"""pkg.ops makes an op and configures it at import; main launches its kernel  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.ops import OP
from pkg.kernels import x, S

print(pl.pallas_call(OP.kernel, out_shape=S, interpret=True)(x).sum())
