"""A decorator with arguments stores the array a function makes; the kernel closes over it.  JAX: ValueError "captures constants"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

TABLES = {}

def table(name):
    def deco(fn):
        TABLES[name] = fn()
        return fn
    return deco

@table("bias")
def make_bias():
    return jnp.arange(128, dtype=jnp.float32)

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + TABLES["bias"]  # expect: PAL003

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
