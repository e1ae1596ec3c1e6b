"""pl.when applied to a lambda whose value is the stored block.  JAX: TypeError "cond branch outputs"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    o_ref[...] = jnp.zeros(o_ref.shape, o_ref.dtype)
    pl.when(pl.program_id(0) == 0)(lambda: x_ref[...] * 2)  # expect: PAL007

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())
