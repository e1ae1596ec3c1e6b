"""Arrays built by a dict comprehension at module level; the kernel reads one.  JAX: ValueError "captures constants"."""
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BIASES = {name: jnp.full((8, 128), v, jnp.float32) for name, v in (("small", 0.1), ("large", 10.0))}

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + BIASES["small"]  # expect: PAL003
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(kernel, x).sum())
