"""A class-based context manager whose `__enter__` returns self carries the kernel; it returns.  JAX: ValueError "... should return None"."""
import functools, itertools, collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def body(x_ref, o_ref):
    return jnp.sin(x_ref[...])  # expect: PAL001

class KernelScope:
    def __init__(self, kernel):
        self.kernel = kernel

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

def run(x):
    with KernelScope(body) as scope:
        return pl.pallas_call(scope.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
