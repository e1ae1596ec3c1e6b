"""main makes pkg.ops.Op and configures it  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.ops import Op

op = Op()
op.configure("bump")
kernel = op.kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
