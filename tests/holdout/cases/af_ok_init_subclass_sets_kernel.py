"""__init_subclass__ sets every subclass's kernel to the writing one.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]
def bump(x_ref, o_ref):
    return x_ref[...] + 1
class Op:
    kernel = staticmethod(bump)
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.kernel = staticmethod(copy)
class Copy(Op):
    pass
print(pl.pallas_call(Copy.kernel, out_shape=S, interpret=True)(x).sum())
