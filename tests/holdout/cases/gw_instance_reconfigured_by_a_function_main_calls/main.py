"""adversarial: gw_instance_reconfigured_by_a_function_main_calls"""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.ops import OP, fast

fast()
kernel = OP.kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
