"""A module-level table placed with jax.device_put(np...) is a jax array the kernel closes over.  JAX: ValueError "captures constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

TABLE = jax.device_put(np.linspace(0.0, 1.0, 8 * 128, dtype=np.float32).reshape(8, 128))

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * TABLE  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
