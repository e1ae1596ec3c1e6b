"""`SPECIAL.get(name, identity_kernel)` selects the kernel; the half kernel returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def identity_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def half_kernel(x_ref, o_ref):
    return x_ref[...] / 2  # expect: PAL001

SPECIAL = {"half": half_kernel}

def run(name, x):
    kernel = SPECIAL.get(name, identity_kernel)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(run("id", x).sum(), run("half", x).sum())
