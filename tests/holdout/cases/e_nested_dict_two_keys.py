"""`TABLE[direction][str(x.dtype)]` picks the kernel from a nested dict; bf16_fwd returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def f32_fwd(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bf16_fwd(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

TABLE = {"fwd": {"float32": f32_fwd, "bfloat16": bf16_fwd}}

def run(direction, x):
    kernel = TABLE[direction][str(x.dtype)]
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run("fwd", jnp.ones((8, 128), jnp.bfloat16)).sum())
