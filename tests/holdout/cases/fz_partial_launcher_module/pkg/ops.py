import functools
from jax.experimental import pallas as pl
from .kernels import KS, S


def run(x, mode='copy'):
    return pl.pallas_call(KS[mode], out_shape=S, interpret=True)(x)


fast = functools.partial(run, mode='bump')
