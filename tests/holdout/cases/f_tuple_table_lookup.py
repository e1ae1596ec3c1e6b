"""A loop over a (dtype, kernel) table returns the match; the bf16 kernel returns.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def k_f32(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def k_bf16(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

TABLE = ((jnp.float32, k_f32), (jnp.bfloat16, k_bf16))

def select(dtype):
    for d, k in TABLE:
        if d == dtype:
            return k
    raise ValueError(dtype)

def run(x):
    return pl.pallas_call(select(x.dtype), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128), jnp.bfloat16)).sum())
