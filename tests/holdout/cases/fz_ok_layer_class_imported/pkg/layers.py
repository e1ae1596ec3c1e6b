from jax.experimental import pallas as pl
from .kernels import KS, S


class Layer:
    def __init__(self, impl):
        self.kernel = KS[impl]

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=S, interpret=True)(x)
