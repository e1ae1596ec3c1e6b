"""A contextmanager yields a launcher bound to a kernel that returns.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def square_kernel(x_ref, o_ref):
    return x_ref[...] ** 2  # expect: PAL001

@contextlib.contextmanager
def launcher(kernel, shape):
    yield pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(shape, jnp.float32), interpret=True)

x = jnp.ones((8, 128), jnp.float32)
with launcher(square_kernel, x.shape) as run:
    print(run(x).sum())
