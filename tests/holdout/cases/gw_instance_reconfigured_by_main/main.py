"""adversarial: gw_instance_reconfigured_by_main"""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.ops import OP as op

op.configure("bump")
kernel = op.kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
