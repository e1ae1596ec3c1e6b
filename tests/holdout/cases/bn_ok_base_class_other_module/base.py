import jax
from jax.experimental import pallas as pl


class Op:
    kernel = None

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
