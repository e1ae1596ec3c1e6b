"""A `@contextlib.contextmanager` yields the kernel that the `with` body launches; it returns tanh.  JAX: ValueError "... should return None"."""
import contextlib
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def tanh_kernel(x_ref, o_ref):
    return jnp.tanh(x_ref[...])  # expect: PAL001

@contextlib.contextmanager
def kernel_scope():
    print("enter")
    try:
        yield tanh_kernel
    finally:
        print("exit")

def run(x):
    with kernel_scope() as k:
        return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
