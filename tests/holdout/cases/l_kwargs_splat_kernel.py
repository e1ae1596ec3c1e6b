"""Options in a dict are splatted into the launcher's keyword arguments.  JAX: ValueError "should return None"."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def halve_kernel(x_ref, o_ref):
    return x_ref[...] / 2  # expect: PAL001

def launch(x, *, kernel, interpret):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=interpret)(x)

opts = dict(kernel=halve_kernel, interpret=True)
print(launch(jnp.ones((8, 128), jnp.float32), **opts).sum())
