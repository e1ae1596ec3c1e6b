"""`functools.partialmethod(launch, partial(scaled, factor=2.0))` launches a kernel that returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def scaled(x_ref, o_ref, *, factor):
    return x_ref[...] * factor  # expect: PAL001

class Op:
    def launch(self, kernel, x):
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

    double = functools.partialmethod(launch, functools.partial(scaled, factor=2.0))

print(Op().double(jnp.ones((8, 128))).sum())
