"""kernels registered by a decorator of another module  JAX: runs."""
import pkg.kernels
from pkg.kernels import S, x, pl
from pkg.registry import REG

print(pl.pallas_call(REG['safe'], out_shape=S, interpret=True)(x).sum())
