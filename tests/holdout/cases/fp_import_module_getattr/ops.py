import importlib
from jax.experimental import pallas as pl
from kernels import x, S


def run(name):
    module = importlib.import_module("kernels")
    return pl.pallas_call(getattr(module, name), out_shape=S, interpret=True)(x)
