import functools
from jax.experimental import pallas as pl
import kernels

fast = functools.partial(pl.pallas_call, kernels.copy, out_shape=kernels.S, interpret=True)()
