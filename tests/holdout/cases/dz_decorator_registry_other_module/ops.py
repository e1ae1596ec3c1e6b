from jax.experimental import pallas as pl
import kernels
import registry


def run():
    return pl.pallas_call(registry.get('bump'), out_shape=kernels.S, interpret=True)(kernels.x)
