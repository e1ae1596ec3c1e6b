import functools

from jax.experimental import pallas as pl


class PallasBaseTest:
    INTERPRET = True

    def pallas_call(self, *args, **kwargs):
        return pl.pallas_call(*args, **kwargs, interpret=self.INTERPRET)

    def kernel(self, *args, **kwargs):
        return functools.partial(pl.pallas_call, interpret=self.INTERPRET)(*args, **kwargs)
