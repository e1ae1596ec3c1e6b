import jax
from jax.experimental import pallas as pl


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


class Op:
    kernel = staticmethod(copy)

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
