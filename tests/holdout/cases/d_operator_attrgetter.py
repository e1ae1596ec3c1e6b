"""`operator.attrgetter("fwd")(Kernels)` fetches a staticmethod kernel that returns.  JAX: ValueError "... should return None"."""
import operator
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class Kernels:
    @staticmethod
    def fwd(x_ref, o_ref):
        return x_ref[...] * 2  # expect: PAL001

get_fwd = operator.attrgetter("fwd")

def run(x):
    return pl.pallas_call(get_fwd(Kernels), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
