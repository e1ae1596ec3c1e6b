"""`globals()[f"{op}_kernel"]` selects the kernel by name; mul_kernel returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]

def mul_kernel(x_ref, y_ref, o_ref):
    return x_ref[...] * y_ref[...]  # expect: PAL001

def binary(op, x, y):
    kernel = globals()[f"{op}_kernel"]
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x, y)

x = jnp.ones((8, 128))
print(binary("add", x, x).sum(), binary("mul", x, x).sum())
