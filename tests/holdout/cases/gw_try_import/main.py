"""adversarial: a try import"""
from jax.experimental import pallas as pl
import pkg.impls
try:
    import pkg.plug
except ImportError:
    pass
from pkg.registry import REG
from pkg.kernels import x, S

print(pl.pallas_call(REG[-1], out_shape=S, interpret=True)(x).sum())
