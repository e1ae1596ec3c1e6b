"""A list of stage kernels indexed by constants: `STAGES[0]`, `STAGES[1]`.
JAX: ValueError "... should return None" for the second stage."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _stage0(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def _stage1(x_ref, o_ref):
    o_ref[...] = x_ref[...] - 1
    return (None,)  # expect: PAL001


STAGES = [_stage0, _stage1]
x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
y = pl.pallas_call(STAGES[0], out_shape=shape, interpret=True)(x)
z = pl.pallas_call(STAGES[1], out_shape=shape, interpret=True)(y)
print(z.sum())
