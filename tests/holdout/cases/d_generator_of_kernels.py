"""A generator function yields candidate kernels, each launched in a loop; b_kernel returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def a_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1

def b_kernel(x_ref, o_ref):
    return x_ref[...] - 1  # expect: PAL001

def candidates():
    yield a_kernel
    yield b_kernel

def run(x):
    outs = []
    for k in candidates():
        outs.append(pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x))
    return outs

print([o.sum() for o in run(jnp.ones((8, 128)))])
