"""`STAGES[step % len(STAGES)]` with a default step of 3 picks odd_kernel, which returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def even_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def odd_kernel(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

STAGES = [even_kernel, odd_kernel]

def run(x, step=3):
    kernel = STAGES[step % len(STAGES)]
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
