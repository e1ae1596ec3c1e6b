"""type(self).KERNEL of the base class only; the subclass with a bad kernel is never used.  JAX: runs."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def shifted(x_ref, o_ref):
    return x_ref[...] + 0.5

class Op:
    KERNEL = staticmethod(plain)

    def run(self, x):
        return pl.pallas_call(type(self).KERNEL, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

class ShiftOp(Op):
    KERNEL = staticmethod(shifted)

print(Op().run(jnp.ones((8, 128), jnp.float32)).sum(), ShiftOp.__name__)
