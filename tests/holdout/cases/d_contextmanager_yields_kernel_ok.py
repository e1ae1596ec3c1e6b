"""A `@contextlib.contextmanager` yields the kernel that the `with` body launches, and a helper
returning None; the kernel writes its output.  JAX: runs."""
import contextlib
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def store(o_ref, value):
    o_ref[...] = value

def tanh_kernel(x_ref, o_ref):
    return store(o_ref, jnp.tanh(x_ref[...]))

@contextlib.contextmanager
def kernel_scope(kernel):
    yield kernel, "tag"

def run(x):
    with kernel_scope(tanh_kernel) as (k, _):
        return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())
