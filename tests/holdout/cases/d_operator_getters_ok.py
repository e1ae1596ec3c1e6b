"""`operator.attrgetter` / `itemgetter` / `methodcaller` select kernels that write their outputs;
a method picked by attrgetter on an instance is bound, as Python binds it.  JAX: runs."""
import operator
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class Kernels:
    scale = 2.0

    @staticmethod
    def fwd(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2

    def bwd(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.scale

    def pick(self, name):
        return getattr(self, name)

TABLE = {"fwd": Kernels.fwd}

def run(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    a = pl.pallas_call(operator.attrgetter("fwd")(Kernels), out_shape=shape, interpret=True)(x)
    b = pl.pallas_call(operator.attrgetter("bwd")(Kernels()), out_shape=shape, interpret=True)(x)
    c = pl.pallas_call(operator.itemgetter("fwd")(TABLE), out_shape=shape, interpret=True)(x)
    d = pl.pallas_call(operator.methodcaller("pick", "bwd")(Kernels()), out_shape=shape, interpret=True)(x)
    return a.sum() + b.sum() + c.sum() + d.sum()

print(run(jnp.ones((8, 128))))
