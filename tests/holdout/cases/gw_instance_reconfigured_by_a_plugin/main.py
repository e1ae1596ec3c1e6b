"""adversarial: gw_instance_reconfigured_by_a_plugin"""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
import pkg.tweak
from pkg.ops import OP

kernel = OP.kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
